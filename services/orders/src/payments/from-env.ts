import type pg from 'pg';
import type { PaymentIntent, PaymentProvider } from './provider';
import { SandboxPaymentProvider } from './sandbox';
import { StripePaymentProvider } from './stripe';

/** Stripe when STRIPE_SECRET_KEY is set: the one place the Stripe settings are read. */
function stripeFromEnv(env: NodeJS.ProcessEnv): StripePaymentProvider | null {
  const key = env.STRIPE_SECRET_KEY?.trim();
  const apiBase = env.STRIPE_API_BASE?.trim() || null;
  if (apiBase && !URL.canParse(apiBase)) throw new Error('Invalid environment variable STRIPE_API_BASE: must be a URL');
  return key
    ? new StripePaymentProvider(key, env.STRIPE_PUBLISHABLE_KEY?.trim() || null, env.STRIPE_WEBHOOK_SECRET?.trim() || null, apiBase)
    : null;
}

/**
 * The payment provider orders uses: Stripe when STRIPE_SECRET_KEY is set, else the built-in
 * sandbox (docs/adr/0005), by the one-process host and by orders on its own alike.
 */
export function paymentProviderFromEnv(pool: pg.Pool, env: NodeJS.ProcessEnv): PaymentProvider {
  return stripeFromEnv(env) ?? new SandboxPaymentProvider(pool);
}

/**
 * What the gateway needs of payments, and no more: which provider (and Stripe's publishable key)
 * for the browser, and Stripe's webhook checked and read. Orders keeps the provider itself.
 */
export interface EdgePayments {
  name: 'sandbox' | 'stripe';
  publishableKey: string | null;
  /** The intent a Stripe webhook is about, once its signature is checked (throws when it does not match); null without Stripe. */
  webhookIntent: ((rawBody: Buffer, signature: string) => PaymentIntent | null) | null;
}

export function edgePaymentsFromEnv(env: NodeJS.ProcessEnv): EdgePayments {
  const stripe = stripeFromEnv(env);
  if (!stripe) return { name: 'sandbox', publishableKey: null, webhookIntent: null };
  return {
    name: 'stripe',
    publishableKey: stripe.publishableKey,
    webhookIntent: (rawBody, signature) => StripePaymentProvider.intentFromEvent(stripe.verifyWebhook(rawBody, signature)),
  };
}
