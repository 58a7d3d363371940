import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '../testing/harness';

/**
 * Stripe's servers are unreachable here, so the real `stripe` SDK is pointed (STRIPE_API_BASE,
 * stripe-mock's convention) at this small stand-in for the two calls the adapter makes:
 * create and retrieve a PaymentIntent. Webhook signatures are real: made and checked with the
 * SDK's own HMAC code.
 */
function fakeStripeApi() {
  const intents = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, string>();
  const seen: { method: string; path: string; body: string; idempotencyKey?: string }[] = [];
  const refunds: string[] = [];
  /** While set, every call is answered with it: Stripe failing (5xx) or refusing the request (4xx). */
  const failing: { answer: { status: number; error: Record<string, unknown> } | null } = { answer: null };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const key = req.headers['idempotency-key'] as string | undefined;
      seen.push({ method: req.method!, path: req.url!, body, ...(key ? { idempotencyKey: key } : {}) });
      const send = (status: number, obj: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(obj));
      if (failing.answer) return send(failing.answer.status, { error: failing.answer.error });
      if (req.method === 'POST' && req.url === '/v1/payment_intents') {
        if (key && byKey.has(key)) return send(200, intents.get(byKey.get(key)!));
        const form = new URLSearchParams(body);
        const id = `pi_fake_${intents.size + 1}`;
        const pi = {
          id,
          object: 'payment_intent',
          amount: Number(form.get('amount')),
          currency: form.get('currency'),
          status: 'requires_payment_method',
          client_secret: `${id}_secret_x`,
          metadata: { bookingId: form.get('metadata[bookingId]') },
        };
        intents.set(id, pi);
        if (key) byKey.set(key, id);
        return send(200, pi);
      }
      if (req.method === 'POST' && req.url === '/v1/refunds') {
        const form = new URLSearchParams(body);
        refunds.push(form.get('payment_intent')!);
        return send(200, { id: `re_${refunds.length}`, object: 'refund', payment_intent: form.get('payment_intent'), status: 'succeeded' });
      }
      const url = new URL(req.url ?? '/', 'http://stripe.test');
      const m = /^\/v1\/payment_intents\/([\w]+)$/.exec(url.pathname);
      if (req.method === 'GET' && m) {
        const pi = intents.get(m[1]!);
        if (!pi) return send(404, { error: { type: 'invalid_request_error', message: 'No such payment_intent' } });
        // `expand[]=latest_charge`, as Stripe answers it: the charge, with whether its money went back.
        const expand = [...url.searchParams.entries()].some(([k, v]) => k.startsWith('expand[') && v === 'latest_charge');
        if (!expand || pi.status !== 'succeeded') return send(200, pi);
        const refunded = refunds.includes(String(pi.id));
        return send(200, {
          ...pi,
          latest_charge: { id: `ch_${String(pi.id)}`, object: 'charge', refunded, amount_refunded: refunded ? pi.amount : 0 },
        });
      }
      send(404, { error: { type: 'invalid_request_error', message: 'unknown route' } });
    });
  });
  return { server, intents, seen, refunds, failing };
}

describe('payments through the Stripe adapter', () => {
  let shop: TestShop;
  const api = fakeStripeApi();
  const webhookSecret = 'whsec_test_secret';
  const stripe = new Stripe('sk_test_unused');
  beforeAll(async () => {
    await new Promise<void>((r) => api.server.listen(0, '127.0.0.1', r));
    const { port } = api.server.address() as AddressInfo;
    shop = await startTestShop({
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_local',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    await shop.stop();
    api.server.close();
  });

  const signed = (event: object, secret = webhookSecret) => {
    const payload = JSON.stringify(event);
    return { raw: payload, headers: { 'Stripe-Signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) } };
  };
  const succeeded = (pi: Record<string, unknown>) => ({
    id: `evt_${pi.id as string}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { ...pi, status: 'succeeded' } },
  });

  it('when a buyer pays with Stripe, then the intent is in BDT poisha with the booking id, and the signed webhook records the payment once', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token, { resale_price: 1500.25 });
    const bookingId = await shop.book(buyer.token, p._id);
    expect((await shop.call('GET', '/config')).body.stripePublishableKey).toBe('pk_test_local');

    const intent = await shop.call('POST', '/create-payment-intent', {
      token: buyer.token,
      body: { bookingId, price: 1 },
      headers: { 'Idempotency-Key': 'pay-1' },
    });
    expect(intent.body).toMatchObject({
      provider: 'stripe',
      amount: 150025,
      currency: 'bdt',
      publishableKey: 'pk_test_local',
      clientSecret: expect.stringContaining('_secret_'),
    });
    const call = api.seen.find((s) => s.method === 'POST')!;
    expect(new URLSearchParams(call.body).get('amount')).toBe('150025');
    expect(new URLSearchParams(call.body).get('metadata[bookingId]')).toBe(bookingId);
    expect(call.idempotencyKey).toBeTruthy();
    const retry = await shop.call('POST', '/create-payment-intent', {
      token: buyer.token,
      body: { bookingId },
      headers: { 'Idempotency-Key': 'pay-1' },
    });
    expect(retry.body.paymentIntentId).toBe(intent.body.paymentIntentId);
    expect(api.intents.size).toBe(1);

    expect(
      (
        await shop.call('POST', '/payment-sandbox/confirm', {
          body: { clientSecret: intent.body.clientSecret, card: { number: '4242424242424242', exp_month: 1, exp_year: 2040, cvc: '123' } },
        })
      ).status,
    ).toBe(404);

    // Not yet succeeded at Stripe: the browser's claim is refused.
    expect(
      (await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: intent.body.paymentIntentId } })).status,
    ).toBe(402);

    const pi = api.intents.get(intent.body.paymentIntentId)!;
    pi.status = 'succeeded';
    const forged = await shop.call('POST', '/stripe/webhook', signed(succeeded(pi), 'whsec_someone_else'));
    expect(forged.status).toBe(400);
    expect(forged.body.field).toBe('Stripe-Signature');
    expect((await shop.call('GET', `/bookings/${bookingId}`, { token: buyer.token })).body.paid).toBe(false);

    const hook = await shop.call('POST', '/stripe/webhook', signed(succeeded(pi)));
    expect(hook.body).toEqual({ received: true });
    await expect.poll(async () => (await shop.call('GET', `/bookings/${bookingId}`, { token: buyer.token })).body.paid).toBe(true);
    // Stripe's signature vouched for it: the log names the shop, not an anonymous visitor (ADR 0055).
    const { rows: paid } = await shop.pool.query<{ metadata: { actorId: string; actorRole: string } }>(
      `select metadata from es.events where stream_id = $1 and type = 'BookingPaid'`,
      [`booking-${bookingId}`],
    );
    expect(paid.map((r) => r.metadata)).toEqual([expect.objectContaining({ actorId: 'system', actorRole: 'System' })]);
    expect((await shop.call('POST', '/stripe/webhook', signed(succeeded(pi)))).status).toBe(200);
    const browser = await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: pi.id } });
    expect(browser.status).toBe(200);
    expect(browser.body.modifiedCount).toBe(1);
    const bookings = await shop.call('GET', `/bookings?email=${buyer.user.email}`, { token: buyer.token });
    expect(bookings.body.filter((b: { paid: boolean }) => b.paid)).toHaveLength(1);
  });

  it('when Stripe reports a payment for a TV its seller sold meanwhile, then the payment is refunded through Stripe', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token, { resale_price: 300 });
    const bookingId = await shop.book(buyer.token, p._id);
    const intent = (await shop.call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } })).body;
    await shop.call('PUT', `/product/sold_status/${p._id}`, { token: seller.token });
    const pi = api.intents.get(intent.paymentIntentId)!;
    pi.status = 'succeeded';
    const hook = await shop.call('POST', '/stripe/webhook', signed(succeeded(pi)));
    expect(hook.status).toBe(200);
    expect(api.refunds).toContain(pi.id);
    // The booking stays in the buyer's history, cancelled, never paid.
    await expect
      .poll(async () => (await shop.call('GET', `/bookings/${bookingId}`, { token: buyer.token })).body)
      .toMatchObject({ status: 'cancelled', paid: false });
  });

  it('when Stripe fails or refuses, then the buyer gets an honest 503 or 422 and nothing is recorded; when it is back, paying and cancelling work', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const bookingId = await shop.book(buyer.token, p._id);
    const bookingEvents = async () =>
      (
        await shop.pool.query<{ type: string }>('select type from es.events where stream_id = $1 order by position', [
          `booking-${bookingId}`,
        ])
      ).rows.map((r) => r.type);
    try {
      api.failing.answer = { status: 500, error: { type: 'api_error', message: 'An unknown error occurred' } };
      const down = await shop.call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } });
      expect(down.status).toBe(503);
      expect(down.headers.get('content-type')).toMatch(/problem\+json/);
      expect(down.headers.get('retry-after')).toBeTruthy();
      expect(down.body.detail).toMatch(/payment provider cannot be reached/);
      const pay = await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: 'pi_fake_unknown' } });
      expect(pay.status).toBe(503);

      api.failing.answer = {
        status: 400,
        error: { type: 'invalid_request_error', code: 'amount_too_small', message: 'Amount must be at least ৳50.00 bdt' },
      };
      const refused = await shop.call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ field: 'bookingId', detail: expect.stringContaining('Amount must be at least') });
      expect(await bookingEvents()).toEqual(['BookingPlaced']);
    } finally {
      api.failing.answer = null;
    }
    const intent = await shop.call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } });
    expect(intent.status).toBe(200);
    // With an intent to ask Stripe about, the buyer's cancellation waits for Stripe's word too.
    api.failing.answer = { status: 503, error: { type: 'api_error', message: 'Service unavailable' } };
    try {
      expect((await shop.call('POST', `/bookings/${bookingId}/cancel`, { token: buyer.token })).status).toBe(503);
    } finally {
      api.failing.answer = null;
    }
    expect(await bookingEvents()).toEqual(['BookingPlaced', 'PaymentIntentCreated']);
    expect((await shop.call('POST', `/bookings/${bookingId}/cancel`, { token: buyer.token })).status).toBe(200);
    expect(await bookingEvents()).toEqual(['BookingPlaced', 'PaymentIntentCreated', 'BookingCancelled']);
  });

  it('when a succeeded intent does not match the booking amount, then it is not recorded', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token, { resale_price: 700 });
    const bookingId = await shop.book(buyer.token, p._id);
    const intent = (await shop.call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } })).body;
    const pi = api.intents.get(intent.paymentIntentId)!;
    Object.assign(pi, { status: 'succeeded', amount: 100 });
    const res = await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: pi.id } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('transationId');
  });

  it('given an intent Stripe refunded whose refund the shop never recorded, when it is paid, then it buys nothing: 409, the refund is recorded and the booking stays open', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token, { resale_price: 800 });
    const bookingId = await shop.book(buyer.token, p._id);
    const intent = (await shop.call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } })).body;
    const pi = api.intents.get(intent.paymentIntentId)!;
    pi.status = 'succeeded';
    api.refunds.push(String(pi.id)); // given back at Stripe; the shop's append of it never happened
    const res = await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: pi.id } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ field: 'transationId', detail: expect.stringMatching(/refunded/) });
    expect((await shop.call('GET', `/bookings/${bookingId}`, { token: buyer.token })).body).toMatchObject({ status: 'open', paid: false });
    expect(((await shop.call('GET', '/all_products')).body as { _id: string; sold: boolean }[]).find((x) => x._id === p._id)?.sold).toBe(
      false,
    );
    const { rows } = await shop.pool.query<{ type: string }>('select type from es.events where stream_id = $1 order by position', [
      `booking-${bookingId}`,
    ]);
    expect(rows.map((r) => r.type)).toEqual(['BookingPlaced', 'PaymentIntentCreated', 'PaymentRefunded']);
  });
});

// Against Stripe itself, only when a test-mode key is given (this machine cannot reach Stripe).
describe.skipIf(!process.env.STRIPE_TEST_SECRET_KEY?.startsWith('sk_test_'))('Stripe adapter contract against api.stripe.com', () => {
  it('when an intent is created and confirmed with a test card, then retrieve reports it succeeded for that booking and amount', async () => {
    const { StripePaymentProvider } = await import('@tv-shop/orders');
    const key = process.env.STRIPE_TEST_SECRET_KEY!;
    const provider = new StripePaymentProvider(key, null);
    const created = await provider.createIntent({
      amount: 150000,
      currency: 'bdt',
      bookingId: 'contract-booking',
      idempotencyKey: `contract-${Date.now()}`,
    });
    expect(created).toMatchObject({ amount: 150000, currency: 'bdt', status: 'requires_payment_method', bookingId: 'contract-booking' });
    await new Stripe(key).paymentIntents.confirm(created.id, { payment_method: 'pm_card_visa' });
    expect(await provider.retrieveIntent(created.id)).toMatchObject({ id: created.id, status: 'succeeded', amount: 150000 });
    expect(await provider.retrieveIntent('pi_does_not_exist')).toBeNull();
  });
});
