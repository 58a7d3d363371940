import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, migrate, uuidFromName, type CommandEnvelope, type CommandReply } from '@tv-shop/platform';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { SandboxPaymentProvider } from './sandbox';
import { startSandboxWebhook } from './sandbox-webhook';

// The sandbox's webhook against its real table (ADR 0059): what it reports, when, how often, and
// what ends a report. The shop's side is a recording stand-in here; the whole shop hears it in
// the gateway's sandbox-webhook tests.

let db: TestDatabase;
let sandbox: SandboxPaymentProvider;
beforeAll(async () => {
  db = await createTestDatabase('sandbox_webhook');
  await migrate(db.pool, 'payment-sandbox', SandboxPaymentProvider.migrations);
  // Reports due at once, so that each test decides when time has passed.
  sandbox = new SandboxPaymentProvider(db.pool, () => new Date(), 0);
});
afterAll(() => db.drop());

const card = { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' };
let n = 0;
/** An intent for a booking, its card confirmed (`number` decides how). */
const paid = async (number = card.number) => {
  const bookingId = `b-${++n}-${Math.random().toString(36).slice(2, 8)}`;
  const intent = await sandbox.createIntent({ amount: 2_500_000, currency: 'bdt', bookingId, idempotencyKey: `k-${bookingId}` });
  await sandbox.confirm(intent.clientSecret, { ...card, number });
  return { bookingId, intentId: intent.id };
};
const row = async (intentId: string) =>
  (
    await db.pool.query<{ reported_at: Date | null; report_attempts: number; due_in: number }>(
      `select reported_at, report_attempts, extract(epoch from next_report_at - now())::float8 as due_in from payment_sandbox.intents where id = $1`,
      [intentId],
    )
  ).rows[0]!;

/** A shop that answers each report with `answer` and remembers what it heard. */
const shopAnswering = (answer: (env: CommandEnvelope) => CommandReply | Error) => {
  const heard: CommandEnvelope[] = [];
  const handle = async (env: CommandEnvelope) => {
    heard.push(env);
    const a = answer(env);
    if (a instanceof Error) throw a;
    return a;
  };
  return { heard, handle };
};
const ok = (): CommandReply => ({ position: 1, result: { paid: true } });

describe('the payment sandbox reports every succeeded payment to the shop, as Stripe does', () => {
  it('when a card goes through and nobody reports it, then the webhook sends PayBooking for whoever booked, with the browser report`s command id, once', async () => {
    const { bookingId, intentId } = await paid();
    const declined = await paid('4000000000000002');
    const shop = shopAnswering(ok);
    const webhook = startSandboxWebhook({ sandbox, handle: shop.handle, everyMs: 60_000 });
    await webhook.flush();
    await webhook.flush();
    await webhook.stop();
    const mine = shop.heard.filter((e) => e.aggregateId === bookingId);
    expect(mine).toEqual([
      expect.objectContaining({
        service: 'orders',
        type: 'PayBooking',
        aggregateId: bookingId,
        commandId: uuidFromName(`payment:${bookingId}:${intentId}`),
        actor: { id: 'system', role: 'System' },
        data: { buyerId: null, paymentIntentId: intentId },
      }),
    ]);
    expect((await row(intentId)).reported_at).not.toBeNull();
    // A declined card paid nothing: there is nothing to report.
    expect(shop.heard.some((e) => e.aggregateId === declined.bookingId)).toBe(false);
  });

  it('when the shop already heard the payment (the browser reported it), then the webhook sends nothing', async () => {
    const { bookingId, intentId } = await paid();
    await sandbox.reported(intentId, bookingId);
    // Another booking's id does not silence this payment's report.
    const other = await paid();
    await sandbox.reported(other.intentId, 'someone-elses-booking');
    const shop = shopAnswering(ok);
    const webhook = startSandboxWebhook({ sandbox, handle: shop.handle, everyMs: 60_000 });
    await webhook.flush();
    await webhook.stop();
    expect(shop.heard.map((e) => e.aggregateId)).not.toContain(bookingId);
    expect(shop.heard.map((e) => e.aggregateId)).toContain(other.bookingId);
  });

  it('when the shop refuses a report and the payment was given back (already paid, booking cancelled), then that answer is final', async () => {
    const { intentId } = await paid();
    const shop = shopAnswering(
      () => new AppError('illegal_state', 'This booking was cancelled; your payment was refunded', { field: 'bookingId' }),
    );
    // What the workflow does before it refuses a payment it cannot keep: it gives the money back.
    const refunding = async (env: CommandEnvelope) => {
      await sandbox.refund(intentId);
      return shop.handle(env);
    };
    const webhook = startSandboxWebhook({ sandbox, handle: refunding, everyMs: 60_000 });
    await webhook.flush();
    await webhook.stop();
    expect(shop.heard.length).toBeGreaterThan(0);
    expect((await row(intentId)).reported_at).not.toBeNull();
  });

  it('when the shop refuses a report but the money stayed taken (a booking too busy: 409), then it is tried again later, never dropped', async () => {
    const { bookingId, intentId } = await paid();
    let busy = true;
    const shop = shopAnswering((env) =>
      env.aggregateId === bookingId && busy ? new AppError('concurrency', 'The booking is busy; please try again') : ok(),
    );
    const webhook = startSandboxWebhook({ sandbox, handle: shop.handle, everyMs: 60_000 });
    await webhook.flush();
    const after = await row(intentId);
    expect(after.reported_at).toBeNull();
    expect(after.due_in).toBeGreaterThan(3);
    busy = false;
    await db.pool.query('update payment_sandbox.intents set next_report_at = now() where id = $1', [intentId]);
    await webhook.flush();
    await webhook.stop();
    expect(shop.heard.filter((e) => e.aggregateId === bookingId)).toHaveLength(2);
    expect((await row(intentId)).reported_at).not.toBeNull();
  });

  it('when a payment is claimed, then it is leased for two minutes (another process takes it only if this one died), and one given back is never claimed', async () => {
    const leased = await paid();
    const given = await paid();
    await sandbox.refund(given.intentId);
    const claimed = await sandbox.claimReports(100);
    expect(claimed.map((c) => c.intentId)).toContain(leased.intentId);
    expect(claimed.map((c) => c.intentId)).not.toContain(given.intentId);
    expect((await row(leased.intentId)).due_in).toBeGreaterThan(110);
    expect((await sandbox.claimReports(100)).map((c) => c.intentId)).not.toContain(leased.intentId);
    await sandbox.reported(leased.intentId, leased.bookingId);
  });

  it('when a process of the version before confirms a card (it sets the status alone), then its payment is due all the same', async () => {
    const bookingId = `b-old-${Math.random().toString(36).slice(2, 8)}`;
    const intent = await sandbox.createIntent({ amount: 2_500_000, currency: 'bdt', bookingId, idempotencyKey: `k-${bookingId}` });
    // Due 3 s after the update (the trigger's pause), measured from the update's own clock: a slow
    // machine may take seconds between the update and a later read.
    const { rows } = await db.pool.query<{ due_in: number | null }>(
      `update payment_sandbox.intents set status = 'succeeded' where id = $1
       returning extract(epoch from next_report_at - now())::float8 as due_in`,
      [intent.id],
    );
    expect(rows[0]!.due_in).toBeGreaterThan(2);
    expect(rows[0]!.due_in).toBeLessThan(4);
    await db.pool.query('update payment_sandbox.intents set next_report_at = now() where id = $1', [intent.id]);
    expect((await sandbox.claimReports(100)).map((c) => c.intentId)).toContain(intent.id);
  });

  it('when the shop cannot take a report (503, or it throws), then it stays unreported and is tried again later, each pause longer', async () => {
    const { bookingId, intentId } = await paid();
    let fails = true;
    const shop = shopAnswering((env) =>
      env.aggregateId === bookingId && fails ? new AppError('unavailable', 'The database is unreachable') : ok(),
    );
    const webhook = startSandboxWebhook({ sandbox, handle: shop.handle, everyMs: 60_000 });
    await webhook.flush();
    const first = await row(intentId);
    expect(first.reported_at).toBeNull();
    expect(first.report_attempts).toBe(1);
    expect(first.due_in).toBeGreaterThan(3);
    // Not due yet: a second look sends nothing for it.
    await webhook.flush();
    expect(shop.heard.filter((e) => e.aggregateId === bookingId)).toHaveLength(1);
    // Time passes; the shop fails again, and waits longer.
    await db.pool.query('update payment_sandbox.intents set next_report_at = now() where id = $1', [intentId]);
    await webhook.flush();
    const second = await row(intentId);
    expect(second.report_attempts).toBe(2);
    expect(second.due_in).toBeGreaterThan(first.due_in + 3);
    // Then the shop is back.
    fails = false;
    await db.pool.query('update payment_sandbox.intents set next_report_at = now() where id = $1', [intentId]);
    await webhook.flush();
    await webhook.stop();
    expect(shop.heard.filter((e) => e.aggregateId === bookingId)).toHaveLength(3);
    expect((await row(intentId)).reported_at).not.toBeNull();
  });

  it('when two deliverers look at once (two orders processes), then each due payment is sent by one of them', async () => {
    const due = await Promise.all(Array.from({ length: 30 }, () => paid()));
    const a = shopAnswering(ok);
    const b = shopAnswering(ok);
    const one = startSandboxWebhook({ sandbox, handle: a.handle, everyMs: 60_000, batch: 4 });
    const two = startSandboxWebhook({ sandbox, handle: b.handle, everyMs: 60_000, batch: 4 });
    await Promise.all([one.flush(), two.flush()]);
    await Promise.all([one.stop(), two.stop()]);
    const sent = [...a.heard, ...b.heard].map((e) => e.aggregateId).filter((id) => due.some((d) => d.bookingId === id));
    expect(sent.sort()).toEqual(due.map((d) => d.bookingId).sort());
  });

  it('when its database is unreachable, then it neither throws nor stops, and its next look once the database is back delivers', async () => {
    const { bookingId, intentId } = await paid();
    let down = true;
    const pool = {
      query: (...args: unknown[]) =>
        down
          ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
          : (db.pool.query as (...a: unknown[]) => Promise<unknown>)(...args),
    };
    const flaky = new SandboxPaymentProvider(pool as never, () => new Date(), 0);
    const shop = shopAnswering(ok);
    const webhook = startSandboxWebhook({ sandbox: flaky, handle: shop.handle, everyMs: 20 });
    await expect(webhook.flush()).resolves.toBeUndefined();
    await new Promise((r) => setTimeout(r, 100));
    expect(shop.heard).toEqual([]);
    down = false;
    await expect.poll(async () => (await row(intentId)).reported_at, { timeout: 5000 }).not.toBeNull();
    await webhook.stop();
    expect(shop.heard.filter((e) => e.aggregateId === bookingId)).toHaveLength(1);
  });
});
