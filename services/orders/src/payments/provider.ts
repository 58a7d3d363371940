/** The payment-provider port: the built-in sandbox, or Stripe. */
export interface PaymentIntent {
  id: string;
  clientSecret: string;
  amount: number; // poisha
  currency: string;
  status: 'requires_payment_method' | 'processing' | 'succeeded' | 'canceled';
  bookingId: string | null;
  /**
   * The provider gave the money back (Stripe keeps a refunded intent's status `succeeded`): such
   * an intent pays for nothing, even when the booking's stream has not recorded the refund yet.
   */
  refunded?: boolean;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  readonly publishableKey: string | null;
  createIntent(input: { amount: number; currency: 'bdt'; bookingId: string; idempotencyKey: string }): Promise<PaymentIntent>;
  retrieveIntent(id: string): Promise<PaymentIntent | null>;
  /** Gives a succeeded payment back in full; the same key never refunds twice. */
  refund(intentId: string, idempotencyKey: string): Promise<void>;
}
