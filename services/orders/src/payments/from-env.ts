import type pg from 'pg';
import type { PaymentProvider } from './provider';
import { SandboxPaymentProvider } from './sandbox';
import { StripePaymentProvider } from './stripe';

/**
 * Stripe when STRIPE_SECRET_KEY is set, else the built-in sandbox (docs/adr/0005): the one place
 * the payment settings are read, by the one-process host and by orders on its own alike.
 */
export function paymentProviderFromEnv(pool: pg.Pool, env: NodeJS.ProcessEnv) {
  const key = env.STRIPE_SECRET_KEY?.trim();
  const apiBase = env.STRIPE_API_BASE?.trim() || null;
  if (apiBase && !URL.canParse(apiBase)) throw new Error('Invalid environment variable STRIPE_API_BASE: must be a URL');
  const stripe = key
    ? new StripePaymentProvider(key, env.STRIPE_PUBLISHABLE_KEY?.trim() || null, env.STRIPE_WEBHOOK_SECRET?.trim() || null, apiBase)
    : null;
  const sandbox = stripe ? null : new SandboxPaymentProvider(pool);
  const payments: PaymentProvider = stripe ?? sandbox!;
  return { payments, stripe, sandbox };
}
