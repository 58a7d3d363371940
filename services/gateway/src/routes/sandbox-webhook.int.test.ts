import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking } from '@tv-shop/contracts';
import { startTestShop, type TestShop } from '../testing/harness';

/**
 * A card that went through is the shop's to hear even when the buyer's tab closed before it
 * reported the payment (ADR 0059): the sandbox's webhook reports it, as Stripe's does.
 */
describe('a payment the browser never reported', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.stop());

  const myOrders = async (buyer: { token: string; user: { email: string } }) =>
    (await shop.call('GET', `/bookings?email=${buyer.user.email}`, { token: buyer.token })).body as Booking[];
  const intentRow = async (intentId: string) =>
    (
      await shop.pool.query<{ refunded_at: Date | null; reported_at: Date | null }>(
        'select refunded_at, reported_at from payment_sandbox.intents where id = $1',
        [intentId],
      )
    ).rows[0]!;
  const eventsOf = async (bookingId: string) =>
    (
      await shop.pool.query<{ type: string }>('select type from es.events where stream_id = $1 order by position', [`booking-${bookingId}`])
    ).rows.map((r) => r.type);

  it('when the card goes through and the tab closes, then within seconds the booking is paid, the TV sold, and a late report changes nothing', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const bookingId = await shop.book(buyer.token, p._id);
    const { confirm } = await shop.confirmCard(buyer.token, bookingId);
    expect(confirm.body.paymentIntent.status).toBe('succeeded');
    const intentId = confirm.body.paymentIntent.id as string;
    // Nobody posts /payments. The sandbox's report is due 3 s after the card, and it looks every second.
    await expect.poll(async () => (await myOrders(buyer))[0]?.status, { timeout: 10_000, interval: 250 }).toBe('paid');
    const sellerView = (await shop.call('GET', `/seller_bookings?email=${seller.user.email}`, { token: seller.token })).body as Booking[];
    expect(sellerView).toMatchObject([{ _id: bookingId, status: 'paid' }]);
    const product = await shop.call('GET', `/product/${p._id}`);
    expect(product.body).toMatchObject({ product: { sold: true } });
    expect((await intentRow(intentId)).reported_at).not.toBeNull();
    // The buyer comes back and the page reports it after all: the same payment, answered the same.
    const late = await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: intentId } });
    expect(late.status).toBe(200);
    expect(await eventsOf(bookingId)).toEqual(['BookingPlaced', 'PaymentIntentCreated', 'PaymentReceived', 'BookingPaid']);
    expect((await intentRow(intentId)).refunded_at).toBeNull();
  });

  it('when the browser reports its payment, then the sandbox has nothing left to report', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const bookingId = await shop.book(buyer.token, p._id);
    const { confirm } = await shop.confirmCard(buyer.token, bookingId);
    const intentId = confirm.body.paymentIntent.id as string;
    const res = await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: intentId } });
    expect(res.status).toBe(200);
    expect((await intentRow(intentId)).reported_at).not.toBeNull();
  });

  it('when an unreported card went through for a TV sold meanwhile to another buyer, then the webhook`s report refunds it and My Orders says so', async () => {
    const seller = await shop.signup('Seller');
    const late = await shop.signup('Buyer');
    const first = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const lateBooking = await shop.book(late.token, p._id);
    const firstBooking = await shop.book(first.token, p._id);
    // The late buyer's payment page is open (an intent); the first buyer pays and the TV is sold.
    const intent = await shop.call('POST', '/create-payment-intent', { token: late.token, body: { bookingId: lateBooking } });
    const paidFirst = await shop.confirmCard(first.token, firstBooking);
    const pay = await shop.call('POST', '/payments', {
      token: first.token,
      body: { bookingId: firstBooking, transationId: paidFirst.confirm.body.paymentIntent.id },
    });
    expect(pay.status).toBe(200);
    // The late buyer's card goes through at the sandbox, and their tab closes.
    const card = { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' };
    const confirm = await shop.call('POST', '/payment-sandbox/confirm', { body: { clientSecret: intent.body.clientSecret, card } });
    expect(confirm.body.paymentIntent.status).toBe('succeeded');
    const intentId = intent.body.paymentIntentId as string;
    // Due at once (time passes), heard within the second it looks.
    await shop.pool.query('update payment_sandbox.intents set next_report_at = now() where id = $1', [intentId]);
    await expect.poll(async () => (await intentRow(intentId)).reported_at, { timeout: 10_000, interval: 250 }).not.toBeNull();
    expect((await intentRow(intentId)).refunded_at).not.toBeNull();
    await expect
      .poll(async () => (await myOrders(late))[0], { timeout: 5000 })
      .toMatchObject({
        _id: lateBooking,
        status: 'cancelled',
        refunded: 25000,
      });
    expect(await myOrders(first)).toMatchObject([{ _id: firstBooking, status: 'paid' }]);
  });
});
