import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking, Product } from '@tv-shop/contracts';
import { startTestShop, type TestShop } from '../testing/harness';

/** Issue: a paid TV can never be sold twice, and a seller sees who booked their TVs. */
describe('a sale is final; sellers see their bookings', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(async () => {
    await shop.stop();
  });

  const pay = async (token: string, bookingId: string) => {
    const { confirm } = await shop.confirmCard(token, bookingId);
    return shop.call('POST', '/payments', { token, body: { bookingId, transationId: confirm.body.paymentIntent.id } });
  };
  const product = async (id: string) => ((await shop.call('GET', '/all_products')).body as Product[]).find((x) => x._id === id);
  const paidBookingsOf = async (productId: string) =>
    Number((await shop.pool.query('select count(*) from rm_orders.bookings where product_id = $1 and paid', [productId])).rows[0].count);
  const charged = async (productId: string) =>
    Number(
      (
        await shop.pool.query(
          `select count(*) from payment_sandbox.intents i join rm_orders.bookings b on b.id = i.booking_id
           where b.product_id = $1 and i.status = 'succeeded' and i.refunded_at is null`,
          [productId],
        )
      ).rows[0].count,
    );
  const open = async (token?: string) => (await shop.socket({ token })).pushes;

  it('given a TV a buyer paid for, when its seller makes it available, then 409 saying why, and nobody else can book or pay for it', async () => {
    const seller = await shop.signup('Seller');
    const a = await shop.signup('Buyer', 'Ayesha Paid');
    const b = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token, { resale_price: 1200 });
    const early = await shop.book(b.token, p._id); // booked before the sale, never paid
    const ba = await shop.book(a.token, p._id);
    expect((await pay(a.token, ba)).status).toBe(200);
    expect(await product(p._id)).toMatchObject({ sold: true, paid_sale: true });

    const unsold = await shop.call('PUT', `/product/unsold_status/${p._id}`, { token: seller.token });
    expect(unsold.status).toBe(409);
    expect(unsold.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(unsold.body.detail).toMatch(/paid sale is final/);
    expect(await product(p._id)).toMatchObject({ sold: true, paid_sale: true });

    const third = await shop.signup('Buyer');
    const late = await shop.call('POST', '/bookings', {
      token: third.token,
      body: { product_id: p._id, phone_number: '01800000000', meeting_location: 'Banani' },
    });
    expect(late.status).toBe(409);
    // The early booking was cancelled by the sale; paying for it now is refused (and refunded if charged).
    const intent = await shop.call('POST', '/create-payment-intent', { token: b.token, body: { bookingId: early } });
    expect(intent.status).toBe(409);
    expect(await paidBookingsOf(p._id)).toBe(1);
    expect(await charged(p._id)).toBe(1);

    const mine = await shop.call('GET', `/seller_products?email=${seller.user.email}`, { token: seller.token });
    expect(mine.body.find((x: Product) => x._id === p._id)).toMatchObject({ sold: true, paid_sale: true });
  });

  it('given a TV its seller marked sold elsewhere, when they make it available again, then it can be booked and bought once', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    expect((await shop.call('PUT', `/product/sold_status/${p._id}`, { token: seller.token })).status).toBe(200);
    expect(await product(p._id)).toMatchObject({ sold: true, paid_sale: false });
    expect((await shop.call('PUT', `/product/unsold_status/${p._id}`, { token: seller.token })).status).toBe(200);
    const bookingId = await shop.book(buyer.token, p._id);
    expect((await pay(buyer.token, bookingId)).status).toBe(200);
    expect((await shop.call('PUT', `/product/unsold_status/${p._id}`, { token: seller.token })).status).toBe(409);
  });

  it('given a payment refunded because its TV was marked sold, when the TV is available again and booked again, then the refunded payment cannot buy it and a new one can', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token, { resale_price: 1500 });
    const bookingId = await shop.book(buyer.token, p._id);
    const { confirm } = await shop.confirmCard(buyer.token, bookingId);
    const first = confirm.body.paymentIntent.id as string;
    expect((await shop.call('PUT', `/product/sold_status/${p._id}`, { token: seller.token })).status).toBe(200);
    const refused = await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: first } });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/refunded/);
    expect((await shop.call('PUT', `/product/unsold_status/${p._id}`, { token: seller.token })).status).toBe(200);
    expect(await shop.book(buyer.token, p._id)).toBe(bookingId);

    // The refunded intent is refused and changes nothing: the TV is still for sale.
    const again = await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: first } });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await product(p._id)).toMatchObject({ sold: false, paid_sale: false });
    expect(await paidBookingsOf(p._id)).toBe(0);

    // Asking for an intent now gives a new one, which pays once.
    const next = await shop.confirmCard(buyer.token, bookingId);
    expect(next.intent.paymentIntentId).not.toBe(first);
    const paid = await shop.call('POST', '/payments', {
      token: buyer.token,
      body: { bookingId, transationId: next.confirm.body.paymentIntent.id },
    });
    expect(paid.status).toBe(200);
    expect(await product(p._id)).toMatchObject({ sold: true, paid_sale: true });
    expect(await paidBookingsOf(p._id)).toBe(1);
    expect(await charged(p._id)).toBe(1);
  });

  it('when the seller toggles sold / available while two buyers pay, then at most one payment is kept and the TV is sold once', async () => {
    for (let round = 0; round < 4; round++) {
      const seller = await shop.signup('Seller');
      const a = await shop.signup('Buyer');
      const b = await shop.signup('Buyer');
      const p = await shop.addProduct(seller.token, { resale_price: 700 });
      const [ba, bb] = [await shop.book(a.token, p._id), await shop.book(b.token, p._id)];
      const [ca, cb] = [await shop.confirmCard(a.token, ba), await shop.confirmCard(b.token, bb)];
      const toggles = (async () => {
        for (let i = 0; i < 6; i++) {
          await shop.call('PUT', `/product/${i % 2 === 0 ? 'sold_status' : 'unsold_status'}/${p._id}`, { token: seller.token });
        }
      })();
      const answers = await Promise.all([
        shop.call('POST', '/payments', { token: a.token, body: { bookingId: ba, transationId: ca.confirm.body.paymentIntent.id } }),
        shop.call('POST', '/payments', { token: b.token, body: { bookingId: bb, transationId: cb.confirm.body.paymentIntent.id } }),
        toggles,
      ]);
      const statuses = answers.slice(0, 2).map((x) => (x as { status: number }).status);
      for (const s of statuses) expect([200, 409]).toContain(s);
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(1);
      expect(await paidBookingsOf(p._id)).toBe(statuses.filter((s) => s === 200).length);
      // Whatever the seller pressed afterwards, a paid TV stays sold and only one card stays charged.
      await shop.call('PUT', `/product/unsold_status/${p._id}`, { token: seller.token });
      const kept = statuses.includes(200);
      const after = await product(p._id);
      if (kept) expect(after).toMatchObject({ sold: true, paid_sale: true });
      // A final sale exactly when a payment was kept, with one paid booking behind it: never a
      // final sale with none (stuck) or two, never a kept payment without one.
      expect(Boolean(after?.paid_sale)).toBe(kept);
      expect(await paidBookingsOf(p._id)).toBe(kept ? 1 : 0);
      expect(await charged(p._id)).toBe(statuses.filter((s) => s === 200).length);
    }
  });

  it("when a buyer books and pays, then the seller's bookings show who is coming, live, and nobody else's socket hears it", async () => {
    const seller = await shop.signup('Seller', 'Karim Seller');
    const otherSeller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer', 'Nila Buyer');
    const admin = await shop.admin();
    const p = await shop.addProduct(seller.token, { porduct_name: 'Walton 40"', resale_price: 9000 });
    const sellerPushes = await open(seller.token);
    const otherPushes = await open(otherSeller.token);
    const visitorPushes = await open();

    const bookingId = await shop.book(buyer.token, p._id, { phone_number: '01712345678', meeting_location: 'Dhanmondi 27' });
    const list = await shop.call('GET', `/seller_bookings?email=${seller.user.email}`, { token: seller.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        _id: bookingId,
        product_id: p._id,
        porduct_name: 'Walton 40"',
        price: 9000,
        username: 'Nila Buyer',
        email: buyer.user.email,
        phone_number: '01712345678',
        meeting_location: 'Dhanmondi 27',
        productImage: p.productImage,
        // Listed without a thumbnail: the photo stands for it.
        productThumbnail: p.productImage,
        paid: false,
        status: 'open',
        booked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        seller_email: seller.user.email,
        // Whom its buyer calls to meet: the seller's name and the listing's phone (ADR 0075).
        seller_name: 'Karim Seller',
        seller_phone: '01711111111',
      },
    ]);
    await expect
      .poll(() => sellerPushes.find((x) => x.entity === 'booking' && x.id === bookingId), { timeout: 10_000, interval: 10 })
      .toMatchObject({ op: 'upsert', row: { status: 'open', username: 'Nila Buyer' } });

    const buyerPushes = await open(buyer.token);
    expect((await pay(buyer.token, bookingId)).status).toBe(200);
    await expect
      .poll(() => sellerPushes.filter((x) => x.entity === 'booking' && x.id === bookingId).at(-1), { timeout: 10_000, interval: 10 })
      .toMatchObject({ row: { status: 'paid', paid: true } });
    const after = await shop.call('GET', `/seller_bookings?email=${seller.user.email}`, { token: seller.token });
    expect(after.body[0]).toMatchObject({ status: 'paid', paid: true });
    // How the buyer paid is theirs (and the admin's): their list and push carry the payment id, the seller's do not.
    const paidPush = (pushes: typeof sellerPushes) =>
      pushes.filter((x) => x.entity === 'booking' && x.id === bookingId).at(-1) as { row: Booking } | undefined;
    await expect.poll(() => paidPush(buyerPushes)?.row.transationId, { timeout: 10_000, interval: 10 }).toMatch(/^pi_/);
    expect(paidPush(sellerPushes)!.row).not.toHaveProperty('transationId');
    expect(after.body[0]).not.toHaveProperty('transationId');
    const mine = await shop.call('GET', `/bookings?email=${buyer.user.email}`, { token: buyer.token });
    expect(mine.body[0]).toMatchObject({ transationId: paidPush(buyerPushes)!.row.transationId });

    expect(otherPushes.some((x) => x.entity === 'booking')).toBe(false);
    expect(visitorPushes.some((x) => x.entity === 'booking')).toBe(false);

    // Only the seller themself or the admin; a buyer, another seller and a visitor are refused.
    expect((await shop.call('GET', `/seller_bookings?email=${seller.user.email}`, { token: otherSeller.token })).status).toBe(403);
    expect((await shop.call('GET', `/seller_bookings?email=${seller.user.email}`, { token: buyer.token })).status).toBe(403);
    expect((await shop.call('GET', `/seller_bookings?email=${buyer.user.email}`, { token: buyer.token })).status).toBe(403);
    expect((await shop.call('GET', `/seller_bookings?email=${seller.user.email}`)).status).toBe(401);
    expect((await shop.call('GET', '/seller_bookings', { token: seller.token })).body.field).toBe('email');
    const asAdmin = await shop.call('GET', `/seller_bookings?email=${seller.user.email}`, { token: admin.token });
    expect(asAdmin.body.map((x: Booking) => x._id)).toEqual([bookingId]);
    expect((await shop.call('GET', `/seller_bookings?email=${buyer.user.email}`, { token: admin.token })).status).toBe(404);
  });

  it("when a buyer's booking is cancelled because the TV went to someone else, then My Orders keeps it with the reason", async () => {
    const seller = await shop.signup('Seller');
    const a = await shop.signup('Buyer');
    const b = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const bb = await shop.book(b.token, p._id);
    const ba = await shop.book(a.token, p._id);
    expect((await pay(a.token, ba)).status).toBe(200);
    await expect
      .poll(async () => (await shop.call('GET', `/bookings?email=${b.user.email}`, { token: b.token })).body)
      .toMatchObject([{ _id: bb, status: 'cancelled', cancel_reason: 'sold to another buyer', paid: false }]);
    const sellerView = (await shop.call('GET', `/seller_bookings?email=${seller.user.email}`, { token: seller.token })).body as Booking[];
    expect(sellerView.map((x) => [x._id, x.status])).toEqual([
      [ba, 'paid'],
      [bb, 'cancelled'],
    ]);

    const q = await shop.addProduct(seller.token);
    const bq = await shop.book(b.token, q._id);
    expect((await shop.call('DELETE', `/product/${q._id}`, { token: (await shop.admin()).token })).status).toBe(200);
    await expect
      .poll(async () => (await shop.call('GET', `/bookings?email=${b.user.email}`, { token: b.token })).body[0])
      .toMatchObject({ _id: bq, status: 'cancelled', cancel_reason: 'listing removed: TV Shop removed it' });
  });

  it('when a report has a reason that is too long or not text, then 400 naming reason and nothing is reported', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    for (const body of [{ reason: 'x'.repeat(501) }, { reason: 42 }, { reason: ['a'] }]) {
      const res = await shop.call('PUT', `/product/add_reported/${p._id}`, { token: buyer.token, body });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('reason');
    }
    expect(await product(p._id)).toMatchObject({ reported: false });
    expect(
      (await shop.call('PUT', `/product/add_reported/${p._id}`, { token: buyer.token, body: { reason: 'x'.repeat(500) } })).status,
    ).toBe(200);
  });

  it("when a buyer reports a product, then the admin's socket gets who and why; a visitor's only the Reported flag", async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer', 'Rafi Reporter');
    const adminPushes = await open((await shop.admin()).token);
    const visitorPushes = await open();
    const p = await shop.addProduct(seller.token);
    await shop.call('PUT', `/product/add_reported/${p._id}`, { token: buyer.token, body: { reason: 'Screen is cracked, not as shown' } });
    await expect
      .poll(() => adminPushes.find((x) => x.entity === 'reported_product' && x.id === p._id), { timeout: 10_000, interval: 10 })
      .toMatchObject({
        op: 'upsert',
        row: { reported: true, reports: [{ by_name: 'Rafi Reporter', reason: 'Screen is cracked, not as shown' }] },
      });
    await expect
      .poll(() => visitorPushes.filter((x) => x.entity === 'product' && x.id === p._id).at(-1))
      .toMatchObject({ row: { reported: true } });
    expect(visitorPushes.some((x) => x.entity === 'reported_product')).toBe(false);
    expect(JSON.stringify(visitorPushes)).not.toContain('Rafi Reporter');
  });

  it('when a seller withdraws their own TV, then it leaves the shop, its open booking is cancelled and nobody can book it; a paid one stays', async () => {
    const seller = await shop.signup('Seller');
    const other = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const bookingId = await shop.book(buyer.token, p._id);
    const visitorPushes = await open();

    // Only its seller may withdraw it; anyone else changes nothing, and the admin's DELETE is not theirs.
    const withdraw = (token?: string) => shop.call('PUT', `/product/withdraw/${p._id}`, token ? { token } : {});
    expect((await shop.call('DELETE', `/product/${p._id}`, { token: seller.token })).status).toBe(403);
    for (const token of [other.token, buyer.token, (await shop.admin()).token]) {
      const refused = await withdraw(token);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    expect((await withdraw()).status).toBe(401);
    expect(await product(p._id)).toBeDefined();

    const withdrawn = await withdraw(seller.token);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ acknowledged: true });
    expect(await product(p._id)).toBeUndefined();
    expect((await shop.call('GET', `/product/${p._id}`)).status).toBe(410); // taken off the shop (ADR 0070)
    const mine = await shop.call('GET', `/seller_products?email=${seller.user.email}`, { token: seller.token });
    expect(mine.body.map((x: Product) => x._id)).not.toContain(p._id);
    // The last push of this product is its removal (an upsert from its booking may come first).
    await expect.poll(() => visitorPushes.filter((x) => x.entity === 'product' && x.id === p._id).at(-1)).toMatchObject({ op: 'remove' });
    // The buyer's booking is cancelled by orders' policy, with the reason kept in their history.
    await expect
      .poll(
        async () =>
          ((await shop.call('GET', `/bookings?email=${buyer.user.email}`, { token: buyer.token })).body as Booking[]).find(
            (b) => b._id === bookingId,
          )?.status,
        {
          timeout: 5000,
        },
      )
      .toBe('cancelled');
    const again = await shop.call('POST', '/bookings', {
      token: buyer.token,
      body: { product_id: p._id, phone_number: '01800000000', meeting_location: 'Banani' },
    });
    expect(again.status).toBe(404);
    expect((await withdraw(seller.token)).status).toBe(404);

    // A TV a buyer paid for is a record of the sale: its seller cannot withdraw it.
    const q = await shop.addProduct(seller.token);
    expect((await pay(buyer.token, await shop.book(buyer.token, q._id))).status).toBe(200);
    const paid = await shop.call('PUT', `/product/withdraw/${q._id}`, { token: seller.token });
    expect(paid.status).toBe(409);
    expect(paid.body.detail).toMatch(/paid sale is final/);
    expect(await product(q._id)).toMatchObject({ sold: true, paid_sale: true });

    // Nor one buyers reported: its reports stay on the admin's Reported Items until the admin decides.
    const r = await shop.addProduct(seller.token);
    expect(
      (await shop.call('PUT', `/product/add_reported/${r._id}`, { token: buyer.token, body: { reason: 'Not as shown' } })).status,
    ).toBe(200);
    const reported = await shop.call('PUT', `/product/withdraw/${r._id}`, { token: seller.token });
    expect(reported.status).toBe(409);
    expect(reported.body.detail).toMatch(/admin has reviewed/);
    const queue = await shop.call('GET', '/reported_products', { token: (await shop.admin()).token });
    expect(queue.body.map((x: Product) => x._id)).toContain(r._id);
  });
});
