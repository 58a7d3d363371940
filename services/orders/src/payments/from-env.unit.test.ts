import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { paymentProviderFromEnv, edgePaymentsFromEnv } from './from-env';

// Which provider the settings choose, and the settings that would lose payments refused.
const pool = new pg.Pool(); // never connected: choosing a provider reads nothing
const stripe = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' };

describe('payments from the environment', () => {
  it('when no Stripe key is set, then the built-in sandbox', () => {
    expect(paymentProviderFromEnv(pool, {}).name).toBe('sandbox');
    expect(edgePaymentsFromEnv({})).toEqual({ name: 'sandbox', publishableKey: null, webhookIntent: null });
  });

  it('when Stripe is set with its webhook secret, then Stripe, in production too', () => {
    const env = { ...stripe, STRIPE_WEBHOOK_SECRET: 'whsec_x', NODE_ENV: 'production' };
    expect(paymentProviderFromEnv(pool, env).name).toBe('stripe');
    expect(edgePaymentsFromEnv(env)).toMatchObject({ name: 'stripe', publishableKey: 'pk_test_x' });
  });

  it('when Stripe is set without its webhook secret in production, then the shop refuses to start, naming the setting', () => {
    const env = { ...stripe, NODE_ENV: 'production' };
    expect(() => paymentProviderFromEnv(pool, env)).toThrow(/STRIPE_WEBHOOK_SECRET.*never recorded/);
    expect(() => edgePaymentsFromEnv(env)).toThrow(/STRIPE_WEBHOOK_SECRET/);
    // Outside production it starts (a developer trying Stripe's test mode), with a warning.
    expect(paymentProviderFromEnv(pool, stripe).name).toBe('stripe');
  });

  it('when Stripe is set without its publishable key in production, then the shop refuses to start: no card form could load', () => {
    const env = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', NODE_ENV: 'production' };
    expect(() => paymentProviderFromEnv(pool, env)).toThrow(/STRIPE_PUBLISHABLE_KEY.*no buyer can pay/);
    expect(() => edgePaymentsFromEnv(env)).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    // Outside production it starts, with a warning; the payment page says cards are unavailable.
    expect(edgePaymentsFromEnv({ ...env, NODE_ENV: 'development' })).toMatchObject({ name: 'stripe', publishableKey: null });
  });

  it('when STRIPE_API_BASE is not a URL, then the shop refuses to start', () => {
    expect(() => paymentProviderFromEnv(pool, { ...stripe, STRIPE_API_BASE: 'not a url' })).toThrow(/STRIPE_API_BASE/);
  });
});
