import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking, Product } from '@tv-shop/contracts';
import { startTestShop, type TestShop } from '../testing/harness';

describe('bookings and payments API', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.stop());

  const book = (token: string, product_id: string, over: Record<string, unknown> = {}) =>
    shop.call('POST', '/bookings', { token, body: { product_id, phone_number: '01800000000', meeting_location: 'Mirpur 10', ...over } });
  const payWith = (token: string, bookingId: string, number: string) => shop.confirmCard(token, bookingId, number);

  it('when a buyer books, pays with 4242 and records it, then the booking is Paid and the product Sold', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer', 'Nila');
    const p = await shop.addProduct(seller.token, { resale_price: 12345.67 });
    const placed = await book(buyer.token, p._id, { price: 1, porduct_name: 'cheap', email: 'someone@else.com', username: 'Mallory' });
    expect(placed.status).toBe(201);
    const bookingId = placed.body.insertedId;
    const mine: Booking[] = (await shop.call('GET', `/bookings?email=${buyer.user.email}`, { token: buyer.token })).body;
    expect(mine).toEqual([
      expect.objectContaining({
        _id: bookingId,
        porduct_name: p.porduct_name,
        price: 12345.67,
        username: 'Nila',
        email: buyer.user.email,
        phone_number: '01800000000',
        meeting_location: 'Mirpur 10',
        productImage: p.productImage,
        product_id: p._id,
        paid: false,
      }),
    ]);

    const { intent, confirm } = await payWith(buyer.token, bookingId, '4242 4242 4242 4242');
    expect(intent).toMatchObject({
      amount: 1234567,
      currency: 'bdt',
      provider: 'sandbox',
      clientSecret: expect.stringContaining('_secret_'),
    });
    expect(confirm.body.paymentIntent).toMatchObject({ status: 'succeeded', amount: 1234567 });
    expect(confirm.body.error).toBeUndefined();
    const rec = await shop.call('POST', '/payments', {
      token: buyer.token,
      body: { bookingId, transationId: confirm.body.paymentIntent.id, price: 1, username: 'x', email: 'x', product_id: p._id },
    });
    expect(rec.status).toBe(200);
    expect(rec.body.acknowledged).toBe(true);
    const again = await shop.call('POST', '/payments', {
      token: buyer.token,
      body: { bookingId, transationId: confirm.body.paymentIntent.id },
    });
    expect(again.status).toBe(200);
    expect(again.body.position).toBe(rec.body.position);

    const paid = await shop.call('GET', `/bookings/${bookingId}`, { token: buyer.token });
    expect(paid.body).toMatchObject({ paid: true, transationId: confirm.body.paymentIntent.id });
    expect(paid.body).not.toHaveProperty('buyerId');
    await expect
      .poll(async () => ((await shop.call('GET', '/all_products')).body as Product[]).find((x) => x._id === p._id)?.sold, { timeout: 5000 })
      .toBe(true);
    const other = await shop.signup('Buyer');
    expect((await book(other.token, p._id)).status).toBe(409);
    // The same payment sent by another buyer is the same command id: it still does not exist for them.
    const copied = await shop.call('POST', '/payments', {
      token: other.token,
      body: { bookingId, transationId: confirm.body.paymentIntent.id },
    });
    expect(copied.status).toBe(404);
    expect(copied.body).not.toHaveProperty('acknowledged');
  });

  it('when a card is declined or wrong, then the Stripe test outcome comes back and nothing is paid', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const bookingId = (await book(buyer.token, p._id)).body.insertedId;
    const outcomes: [string, string][] = [
      ['4000 0000 0000 0002', 'card_declined'],
      ['4000000000009995', 'card_declined'],
      ['4000000000000069', 'expired_card'],
      ['4000000000000127', 'incorrect_cvc'],
      ['4242424242424241', 'incorrect_number'],
    ];
    for (const [number, code] of outcomes) {
      const { confirm } = await payWith(buyer.token, bookingId, number);
      expect(confirm.status).toBe(200);
      expect(confirm.body.error, number).toMatchObject({ code, type: 'card_error', message: expect.any(String) });
      expect(confirm.body.paymentIntent.status).toBe('requires_payment_method');
      const rec = await shop.call('POST', '/payments', {
        token: buyer.token,
        body: { bookingId, transationId: confirm.body.paymentIntent.id },
      });
      expect(rec.status).toBe(402);
    }
    const declined = (await payWith(buyer.token, bookingId, '4000000000009995')).confirm.body.error;
    expect(declined.decline_code).toBe('insufficient_funds');
    expect((await shop.call('GET', `/bookings/${bookingId}`, { token: buyer.token })).body.paid).toBe(false);
    const bad = await shop.call('POST', '/payment-sandbox/confirm', {
      body: { clientSecret: 'nope', card: { number: '4242424242424242', exp_month: 13, exp_year: 2030, cvc: '1' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('card.exp_month');
    // An array or null where the expiry's number belongs is refused, not read as a number.
    for (const [field, value] of [
      ['exp_year', [2030]],
      ['exp_month', [12]],
      ['exp_year', null],
      ['exp_month', ''],
      ['exp_year', '0x7ee'],
    ] as const) {
      const intent = (await shop.call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } })).body;
      const card = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123', [field]: value };
      const res = await shop.call('POST', '/payment-sandbox/confirm', { body: { clientSecret: intent.clientSecret, card } });
      expect(res.status, `${field} ${JSON.stringify(value)}`).toBe(400);
      expect(res.body.field).toBe(`card.${field}`);
    }
    expect((await shop.call('GET', `/bookings/${bookingId}`, { token: buyer.token })).body.paid).toBe(false);
  });

  it('when a buyer tries to pay with an intent of another booking or a made-up id, then refused', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const a = (await book(buyer.token, (await shop.addProduct(seller.token))._id)).body.insertedId;
    const b = (await book(buyer.token, (await shop.addProduct(seller.token, { resale_price: 100 }))._id)).body.insertedId;
    const { confirm } = await payWith(buyer.token, b, '4242424242424242');
    const cross = await shop.call('POST', '/payments', {
      token: buyer.token,
      body: { bookingId: a, transationId: confirm.body.paymentIntent.id },
    });
    expect(cross.status).toBe(400);
    expect(cross.body.field).toBe('transationId');
    expect((await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId: a, transationId: 'pi_madeup' } })).status).toBe(
      400,
    );
    expect((await shop.call('GET', `/bookings/${a}`, { token: buyer.token })).body.paid).toBe(false);
  });

  it('when someone else asks for a booking or pays for it, then it does not exist for them', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const thief = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const bookingId = (await book(buyer.token, p._id)).body.insertedId;
    expect((await shop.call('GET', `/bookings/${bookingId}`, { token: thief.token })).status).toBe(404);
    expect((await shop.call('GET', `/bookings/${bookingId}`)).status).toBe(401);
    expect((await shop.call('GET', `/bookings?email=${buyer.user.email}`, { token: thief.token })).status).toBe(403);
    expect((await shop.call('POST', '/create-payment-intent', { token: thief.token, body: { bookingId } })).status).toBe(404);
    expect((await shop.call('GET', `/bookings/${bookingId}`, { token: (await shop.admin()).token })).status).toBe(200);
  });

  it('when bookings break the marketplace rules, then 4xx: twice unpaid, own product, sold or removed product, seller, bad form', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    expect((await book(buyer.token, p._id)).status).toBe(201);
    expect((await book(buyer.token, p._id)).status).toBe(409);
    expect((await book(seller.token, p._id)).status).toBe(403);
    expect((await book(buyer.token, '00000000-0000-0000-0000-000000000000')).status).toBe(404);
    const sold = await shop.addProduct(seller.token);
    await shop.call('PUT', `/product/sold_status/${sold._id}`, { token: seller.token });
    const r = await book(buyer.token, sold._id);
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/already been sold/);
    const missingPhone = await shop.call('POST', '/bookings', { token: buyer.token, body: { product_id: p._id, meeting_location: 'x' } });
    expect(missingPhone.body).toMatchObject({ status: 400, field: 'phone_number' });
    const emptyPlace = await book(buyer.token, p._id, { meeting_location: '   ' });
    expect(emptyPlace.body.field).toBe('meeting_location');
    // The seller calls the buyer on it: a phone that cannot be called is refused as a listing's is.
    const other = await shop.signup('Buyer');
    for (const phone_number of ['abc', '017', '0171234567a']) {
      const refused = await book(other.token, p._id, { phone_number });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(refused.body.field).toBe('phone_number');
    }
    const mine = await shop.call('GET', `/bookings?email=${other.user.email}`, { token: other.token });
    expect(mine.body).toEqual([]);
    expect((await book(other.token, p._id, { phone_number: '+880 1712-345678' })).status).toBe(201);
  });

  it('when a product is sold to another buyer, then an unpaid booking of it is withdrawn and cannot be paid', async () => {
    const seller = await shop.signup('Seller');
    const first = await shop.signup('Buyer');
    const second = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token, { resale_price: 500 });
    const b1 = (await book(first.token, p._id)).body.insertedId;
    const b2 = (await book(second.token, p._id)).body.insertedId;
    const pending = await payWith(second.token, b2, '4242424242424242');
    const { confirm } = await payWith(first.token, b1, '4242424242424242');
    await shop.call('POST', '/payments', { token: first.token, body: { bookingId: b1, transationId: confirm.body.paymentIntent.id } });
    const late = await shop.call('POST', '/payments', {
      token: second.token,
      body: { bookingId: b2, transationId: pending.confirm.body.paymentIntent.id },
    });
    expect(late.status).toBe(409);
    await expect
      .poll(
        async () =>
          (await shop.call('GET', `/bookings?email=${second.user.email}`, { token: second.token })).body.map((x: Booking) => ({
            id: x._id,
            status: x.status,
            reason: x.cancel_reason,
          })),
        { timeout: 5000 },
      )
      .toEqual([{ id: b2, status: 'cancelled', reason: 'sold to another buyer' }]);
  });
});
