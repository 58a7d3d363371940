import type pg from 'pg';
import { createLogger } from '@tv-shop/platform';
import type { PaymentIntent, PaymentProvider } from './provider';
import { SandboxPaymentProvider } from './sandbox';
import { StripePaymentProvider } from './stripe';

const log = createLogger('payments');
/** The Stripe settings already warned of, once per process. */
const warned = new Set<string>();

/**
 * A Stripe setting without which payments go wrong (`why`): refused at start in production,
 * warned of once elsewhere (a developer trying Stripe's test mode), with `hint` saying what it is.
 */
function required(env: NodeJS.ProcessEnv, name: string, why: string, hint: string): string | null {
  const value = env[name]?.trim() || null;
  if (value) return value;
  if (env.NODE_ENV === 'production') throw new Error(`Invalid environment variable ${name}: ${name} ${why}`);
  if (!warned.has(name)) log.warn(`${name} ${why}; set it (${hint}) outside development`);
  warned.add(name);
  return null;
}

/** Stripe when STRIPE_SECRET_KEY is set: the one place the Stripe settings are read. */
function stripeFromEnv(env: NodeJS.ProcessEnv): StripePaymentProvider | null {
  const key = env.STRIPE_SECRET_KEY?.trim();
  const apiBase = env.STRIPE_API_BASE?.trim() || null;
  if (apiBase && !URL.canParse(apiBase)) throw new Error('Invalid environment variable STRIPE_API_BASE: must be a URL');
  if (!key) return null;
  // Stripe's webhook is how the shop hears a payment whose page closed before it reported it
  // (ADR 0059): without it such a buyer is charged and the booking stays unpaid.
  const webhookSecret = required(
    env,
    'STRIPE_WEBHOOK_SECRET',
    'is not set: a card payment whose page closed before reporting it is never recorded',
    "Stripe's signing secret for /api/stripe/webhook",
  );
  // The browser's card form is Stripe's, loaded with this key: without it buyers cannot pay.
  const publishableKey = required(
    env,
    'STRIPE_PUBLISHABLE_KEY',
    'is not set: the payment page has no card form, so no buyer can pay',
    "Stripe's publishable key, pk_...",
  );
  return new StripePaymentProvider(key, publishableKey, webhookSecret, apiBase);
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
