import type pg from 'pg';
import type { PaymentProvider } from './provider';
import { SandboxPaymentProvider } from './sandbox';
import { StripePaymentProvider } from './stripe';

/** Stripe when STRIPE_SECRET_KEY is set, else the built-in sandbox (docs/adr/0005). */
export function paymentProviderFromEnv(pool: pg.Pool, env: NodeJS.ProcessEnv) {
  const key = env.STRIPE_SECRET_KEY?.trim();
  const stripe = key
    ? new StripePaymentProvider(
        key,
        env.STRIPE_PUBLISHABLE_KEY?.trim() || null,
        env.STRIPE_WEBHOOK_SECRET?.trim() || null,
        env.STRIPE_API_BASE?.trim() || null,
      )
    : null;
  const sandbox = stripe ? null : new SandboxPaymentProvider(pool);
  const payments: PaymentProvider = stripe ?? sandbox!;
  return { payments, stripe, sandbox };
}
