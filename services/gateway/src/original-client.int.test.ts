import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from './testing/harness';

/** The spec's own browser client, as its code calls TV Shop: what it may and may not do here. */
describe("the spec's client: paying with { price } alone", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(async () => {
    await shop.stop();
  });

  const intentFor = (token: string, body: unknown) => shop.call('POST', '/create-payment-intent', { token, body });

  it('given exactly one open booking at that price, when the client sends { price }, then the intent is for that booking', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const cheap = await shop.addProduct(seller.token, { resale_price: 4100 });
    const dear = await shop.addProduct(seller.token, { resale_price: 9900 });
    const bookingId = await shop.book(buyer.token, cheap._id);
    await shop.book(buyer.token, dear._id);
    // The spec's client sends the price as its form had it: a number, or text.
    for (const price of [4100, '4100']) {
      const res = await intentFor(buyer.token, { price });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ amount: 410_000, currency: 'bdt' });
      const viaId = await intentFor(buyer.token, { bookingId });
      expect(viaId.body.paymentIntentId).toBe(res.body.paymentIntentId);
    }
    // The charge comes from the booking, and the payment records against it.
    const { confirm } = await shop.confirmCard(buyer.token, bookingId);
    const paid = await shop.call('POST', '/payments', {
      token: buyer.token,
      body: { bookingId, transationId: confirm.body.paymentIntent.id },
    });
    expect(paid.status).toBe(200);
    // Now paid: no open booking at that price is left.
    const after = await intentFor(buyer.token, { price: 4100 });
    expect(after.status).toBe(422);
    expect(after.body.field).toBe('bookingId');
  });

  it('given no open booking or two at that price, when the client sends { price }, then 422 naming bookingId', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const none = await intentFor(buyer.token, { price: 5000 });
    expect(none.status).toBe(422);
    expect(none.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(none.body).toMatchObject({ status: 422, field: 'bookingId' });
    expect(none.body.detail).toMatch(/no open booking/);

    const a = await shop.addProduct(seller.token, { resale_price: 5000 });
    const b = await shop.addProduct(seller.token, { resale_price: 5000 });
    await shop.book(buyer.token, a._id);
    await shop.book(buyer.token, b._id);
    const two = await intentFor(buyer.token, { price: 5000 });
    expect(two.status).toBe(422);
    expect(two.body.field).toBe('bookingId');
    expect(two.body.detail).toMatch(/several/);

    for (const body of [{}, { price: null }, { price: 'abc' }, { price: -5 }]) {
      const res = await intentFor(buyer.token, body);
      expect(res.status).toBe(422);
      expect(res.body.field).toBe('bookingId');
    }
  });

  it("given another buyer's booking at that price, when a buyer sends { price }, then it is not theirs to pay: 422", async () => {
    const seller = await shop.signup('Seller');
    const owner = await shop.signup('Buyer');
    const other = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token, { resale_price: 7300 });
    const bookingId = await shop.book(owner.token, p._id);
    const res = await intentFor(other.token, { price: 7300 });
    expect(res.status).toBe(422);
    expect(res.body.field).toBe('bookingId');
    // Naming it outright is refused as before, exactly like a booking that does not exist.
    expect((await intentFor(other.token, { bookingId })).status).toBe(404);
    // And a seller or a visitor cannot use the call at all.
    expect((await intentFor(seller.token, { price: 7300 })).status).toBe(403);
    expect((await shop.call('POST', '/create-payment-intent', { body: { price: 7300 } })).status).toBe(401);
  });
});
