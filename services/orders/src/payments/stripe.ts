import Stripe from 'stripe';
import { AppError, createLogger } from '@tv-shop/platform';
import type { PaymentIntent, PaymentProvider } from './provider';

const log = createLogger('orders');

/**
 * Stripe through its official SDK. BDT is a two-decimal currency for Stripe, so poisha are
 * its smallest unit as they are ours.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;
  constructor(
    secretKey: string,
    readonly publishableKey: string | null,
    private readonly webhookSecret: string | null = null,
    /** Another API base (stripe-mock's convention: STRIPE_API_BASE); unset means api.stripe.com. */
    apiBase: string | null = null,
  ) {
    const base = apiBase ? new URL(apiBase) : null;
    this.stripe = new Stripe(secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(base
        ? {
            host: base.hostname,
            port: Number(base.port || (base.protocol === 'http:' ? 80 : 443)),
            protocol: base.protocol === 'http:' ? 'http' : 'https',
          }
        : {}),
    });
  }

  async createIntent(input: { amount: number; currency: 'bdt'; bookingId: string; idempotencyKey: string }): Promise<PaymentIntent> {
    const pi = await this.stripe.paymentIntents
      .create(
        { amount: input.amount, currency: input.currency, payment_method_types: ['card'], metadata: { bookingId: input.bookingId } },
        { idempotencyKey: input.idempotencyKey },
      )
      .catch(asShopError('create an intent'));
    return toIntent(pi);
  }

  async retrieveIntent(id: string): Promise<PaymentIntent | null> {
    try {
      // With its latest charge, which says whether the money was given back.
      return toIntent(await this.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }));
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return null;
      return asShopError('retrieve an intent')(err);
    }
  }

  async refund(intentId: string, idempotencyKey: string): Promise<void> {
    await this.stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey }).catch((err: unknown) => {
      // Given back already (by an earlier attempt under another key, or from Stripe's dashboard): done.
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'charge_already_refunded') return;
      asShopError('refund')(err);
    });
  }

  /** Checks the Stripe-Signature header; throws when it does not match the raw body. */
  verifyWebhook(rawBody: Buffer, signature: string): Stripe.Event {
    if (!this.webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set');
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
  }

  static intentFromEvent(event: Stripe.Event): PaymentIntent | null {
    return event.type === 'payment_intent.succeeded' ? toIntent(event.data.object) : null;
  }
}

/**
 * Stripe's failures as the shop answers them, never a 500: Stripe refusing the request itself
 * (an amount under its minimum, say) is a 422 in its words; Stripe unreachable, failing, limiting
 * us or refusing our key is a 503 to try again (the money stays where it is: the payment and
 * refund steps are idempotent and run again on the retry).
 */
const asShopError =
  (call: string) =>
  (err: unknown): never => {
    if (err instanceof Stripe.errors.StripeInvalidRequestError && (err.statusCode ?? 400) < 500) {
      log.warn('stripe refused a request', { call, code: err.code, message: err.message });
      throw new AppError('unprocessable', `The payment provider refused: ${err.message}`, { field: 'bookingId' });
    }
    if (err instanceof Stripe.errors.StripeError) {
      log.warn('stripe unavailable', { call, type: err.type, status: err.statusCode, message: err.message });
      throw new AppError('unavailable', 'The payment provider cannot be reached right now; try again in a moment');
    }
    throw err;
  };

function toIntent(pi: Stripe.PaymentIntent): PaymentIntent {
  const status =
    pi.status === 'succeeded'
      ? 'succeeded'
      : pi.status === 'processing'
        ? 'processing'
        : pi.status === 'canceled'
          ? 'canceled'
          : 'requires_payment_method';
  return {
    id: pi.id,
    clientSecret: pi.client_secret ?? '',
    amount: pi.amount,
    currency: pi.currency,
    status,
    bookingId: pi.metadata?.bookingId ?? null,
    ...(refundedCharge(pi.latest_charge) ? { refunded: true } : {}),
  };
}

/** A charge (when expanded) whose money went back, in part or in full. */
const refundedCharge = (charge: string | Stripe.Charge | null | undefined) =>
  typeof charge === 'object' && charge !== null && (charge.refunded || charge.amount_refunded > 0);
