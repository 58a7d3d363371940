import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { luhnValid, type CommandOf, type SandboxConfirmAnswer } from '@tv-shop/contracts';
import { AppError, notFound } from '@tv-shop/platform';
import type { PaymentIntent, PaymentProvider } from './provider';

/** Stripe's published test cards and what they do; any other valid number succeeds. */
const OUTCOMES: Record<string, { code: string; decline_code?: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  '4000000000000069': { code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
};

/** A number of 12 to 19 digits whose check digit is right (contracts' Luhn, which the card form uses too). */
const validCardNumber = (digits: string): boolean => /^\d{12,19}$/.test(digits) && luhnValid(digits);

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}
export type ConfirmResult =
  | { paymentIntent: PaymentIntent; error?: undefined }
  | { paymentIntent: PaymentIntent; error: { code: string; decline_code?: string; message: string; type: 'card_error' } };

interface Row {
  id: string;
  client_secret: string;
  amount: number | string;
  currency: string;
  status: PaymentIntent['status'];
  booking_id: string | null;
  refunded_at?: Date | null;
}
const toIntent = (r: Row): PaymentIntent => ({
  id: r.id,
  clientSecret: r.client_secret,
  amount: Number(r.amount),
  currency: r.currency,
  status: r.status,
  bookingId: r.booking_id,
  ...(r.refunded_at ? { refunded: true } : {}),
});

/**
 * A card processor that behaves like Stripe's test mode, so the whole payment flow runs with no
 * outside service. It keeps its intents in its own table, as an outside provider would.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly publishableKey = null;
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => Date = () => new Date(),
    /** How long after a card succeeds its webhook is due. */
    private readonly reportAfterMs = 3000,
  ) {}

  static readonly migrations = [
    {
      id: '0001-sandbox-intents',
      sql: `create schema if not exists payment_sandbox;
        create table payment_sandbox.intents (
          id text primary key, client_secret text not null unique, amount integer not null, currency text not null,
          status text not null, booking_id text, idempotency_key text unique, created_at timestamptz not null default now());`,
    },
    {
      id: '0002-sandbox-refunds',
      sql: `alter table payment_sandbox.intents alter column amount type bigint, add column refunded_at timestamptz;`,
    },
    {
      // The sandbox's webhook (ADR 0059): a succeeded payment is reported to the shop until it is
      // heard. Payments from before it are reported a minute after the upgrade (new ones first),
      // except those already given back. The trigger makes a card confirmed by a process of the
      // version before (which sets the status alone) due as well.
      id: '0003-sandbox-reports',
      sql: `alter table payment_sandbox.intents add column reported_at timestamptz, add column report_attempts integer not null default 0,
          add column next_report_at timestamptz;
        update payment_sandbox.intents set next_report_at = now() + interval '1 minute'
          where status = 'succeeded' and booking_id is not null and refunded_at is null;
        create index intents_unreported on payment_sandbox.intents (next_report_at)
          where status = 'succeeded' and reported_at is null and refunded_at is null and booking_id is not null;
        create function payment_sandbox.report_when_succeeded() returns trigger language plpgsql as $$
          begin
            if new.status = 'succeeded' and old.status is distinct from 'succeeded' and new.next_report_at is null then
              new.next_report_at := now() + interval '3 seconds';
            end if;
            return new;
          end $$;
        create trigger report_when_succeeded before update of status on payment_sandbox.intents
          for each row execute function payment_sandbox.report_when_succeeded();`,
    },
  ];

  async createIntent(input: { amount: number; currency: 'bdt'; bookingId: string; idempotencyKey: string }): Promise<PaymentIntent> {
    const id = `pi_${randomBytes(12).toString('hex')}`;
    const secret = `${id}_secret_${randomBytes(12).toString('hex')}`;
    const key = createHash('sha256').update(input.idempotencyKey).digest('hex');
    await this.pool.query(
      `insert into payment_sandbox.intents (id, client_secret, amount, currency, status, booking_id, idempotency_key)
       values ($1, $2, $3, $4, 'requires_payment_method', $5, $6) on conflict (idempotency_key) do nothing`,
      [id, secret, input.amount, input.currency, input.bookingId, key],
    );
    const { rows } = await this.pool.query<Row>('select * from payment_sandbox.intents where idempotency_key = $1', [key]);
    return toIntent(rows[0]!);
  }

  async retrieveIntent(id: string): Promise<PaymentIntent | null> {
    const { rows } = await this.pool.query<Row>('select * from payment_sandbox.intents where id = $1', [id]);
    return rows[0] ? toIntent(rows[0]) : null;
  }

  async refund(intentId: string): Promise<void> {
    await this.pool.query(
      `update payment_sandbox.intents set refunded_at = coalesce(refunded_at, now()) where id = $1 and status = 'succeeded'`,
      [intentId],
    );
  }

  /** Whether a payment was given back (for tests and the audit). */
  async refundedAt(intentId: string): Promise<Date | null> {
    const { rows } = await this.pool.query<{ refunded_at: Date | null }>('select refunded_at from payment_sandbox.intents where id = $1', [
      intentId,
    ]);
    return rows[0]?.refunded_at ?? null;
  }

  /** What Stripe.js's confirmCardPayment does against Stripe, here against the sandbox. */
  async confirm(clientSecret: string, card: CardInput): Promise<ConfirmResult> {
    const { rows } = await this.pool.query<Row>('select * from payment_sandbox.intents where client_secret = $1', [clientSecret]);
    const row = rows[0];
    if (!row) throw new AppError('not_found', 'No payment intent has this client secret', { field: 'clientSecret' });
    const intent = toIntent(row);
    if (intent.status === 'succeeded') return { paymentIntent: intent };
    const number = card.number.replace(/[\s-]/g, '');
    const fail = (code: string, message: string, decline_code?: string): ConfirmResult => ({
      paymentIntent: intent,
      error: { code, message, type: 'card_error', ...(decline_code ? { decline_code } : {}) },
    });
    if (!validCardNumber(number)) return fail('incorrect_number', 'Your card number is incorrect.');
    const now = this.now();
    const expiry = new Date(Date.UTC(card.exp_year, card.exp_month, 1));
    if (expiry <= now) return fail('invalid_expiry_year', "Your card's expiration year is in the past.");
    const outcome = OUTCOMES[number];
    if (outcome) return fail(outcome.code, outcome.message, outcome.decline_code);
    // Its report to the shop (the webhook) is due a moment later: the browser's own usually comes first.
    const { rows: done } = await this.pool.query<Row>(
      `update payment_sandbox.intents set status = 'succeeded', next_report_at = now() + $2 * interval '1 millisecond'
       where id = $1 returning *`,
      [intent.id, this.reportAfterMs],
    );
    return { paymentIntent: toIntent(done[0]!) };
  }

  /**
   * Succeeded payments whose report is due, claimed for this delivery. A claim is a lease of two
   * minutes (longer than any command's reply timeout): another process takes the payment only if
   * this one died delivering it, and two deliverers never send it at once. Payments already given
   * back have nothing to report.
   */
  async claimReports(limit: number): Promise<{ intentId: string; bookingId: string; attempts: number }[]> {
    const { rows } = await this.pool.query<{ id: string; booking_id: string; report_attempts: number }>(
      `update payment_sandbox.intents set report_attempts = report_attempts + 1, next_report_at = now() + interval '2 minutes'
       where id in (select id from payment_sandbox.intents
         where status = 'succeeded' and reported_at is null and refunded_at is null and booking_id is not null and next_report_at <= now()
         order by next_report_at limit $1 for update skip locked)
       returning id, booking_id, report_attempts`,
      [limit],
    );
    return rows.map((r) => ({ intentId: r.id, bookingId: r.booking_id, attempts: r.report_attempts }));
  }

  /** The shop could not take this report: it is due again after a pause that grows with each attempt (5 s, 10 s, ... up to 5 min). */
  async reportLater(intentId: string, attempts: number): Promise<void> {
    await this.pool.query(
      `update payment_sandbox.intents set next_report_at = now() + least(300, 5 * 2 ^ least($2::int - 1, 6)) * interval '1 second'
       where id = $1 and reported_at is null`,
      [intentId, attempts],
    );
  }

  /** The shop has heard this payment for this booking: nothing more to report. */
  async reported(intentId: string, bookingId: string): Promise<void> {
    await this.pool.query(
      'update payment_sandbox.intents set reported_at = coalesce(reported_at, now()) where id = $1 and booking_id = $2',
      [intentId, bookingId],
    );
  }
}

/**
 * `ConfirmSandboxCard`: confirms a card in the sandbox and answers what Stripe.js would see,
 * without the client secret. With Stripe configured there is no sandbox to confirm in.
 */
export async function confirmSandboxCard(
  payments: PaymentProvider,
  { clientSecret, card }: CommandOf<'orders', 'ConfirmSandboxCard'>['data'],
): Promise<SandboxConfirmAnswer> {
  if (!(payments instanceof SandboxPaymentProvider)) throw notFound('The payment sandbox (Stripe is configured)');
  const result = await payments.confirm(clientSecret, card);
  const { id, status, amount, currency } = result.paymentIntent;
  const paymentIntent = { id, status, amount, currency };
  return result.error ? { paymentIntent, error: result.error } : { paymentIntent };
}
