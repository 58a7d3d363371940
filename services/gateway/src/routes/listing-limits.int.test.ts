import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@tv-shop/contracts';
import { startTestShop, type Call, type TestShop } from '../testing/harness';

/**
 * A seller's listing limits through real HTTP (ADR 0035): at most 5 TVs for sale and 8 new
 * listings an hour here. Catalog decides them on the seller's own stream; the edge only shows
 * the answer. What happens between the slot and the listing is in catalog's slots.int.test.ts.
 */
describe('listing limits', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ LISTING_LIMIT_ACTIVE: '5', LISTING_LIMIT_PER_HOUR: '8' });
  });
  afterAll(() => shop.stop());

  const add = (token: string, name = 'Walton 32"', headers: Record<string, string> = {}) =>
    shop.call('POST', '/products', { token, body: shop.productBody({ porduct_name: name }), headers });
  const addMany = async (token: string, n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await shop.addProduct(token, { porduct_name: `TV ${i}` }))._id);
    return ids;
  };
  /** What is stored: the number of events in the log and the products everyone sees. */
  const stored = async () => ({
    events: Number((await shop.pool.query<{ n: string }>('select count(*) as n from es.events')).rows[0]!.n),
    products: ((await shop.call('GET', '/all_products')).body as Product[]).map((p) => p._id).sort(),
  });
  const expectRefused = (res: Call, field: string, detail: RegExp) => {
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: 'https://tvshop.local/problems/too-many-requests',
      title: 'Too many requests',
      status: 429,
      field,
    });
    expect(res.body.detail).toMatch(detail);
  };

  it('when a seller with 5 TVs for sale adds another, then 429 with Retry-After and the sentence, and nothing is stored', async () => {
    const seller = await shop.signup('Seller');
    await addMany(seller.token, 5);
    const before = await stored();
    const res = await add(seller.token, 'One too many');
    expectRefused(
      res,
      'active_listings',
      /^You already have 5 TVs for sale, the most one seller may have\. Mark one sold or withdraw it before adding another\.$/,
    );
    expect(res.headers.get('retry-after')).toBe('3600');
    expect(await stored()).toEqual(before);
    const mine = await shop.call('GET', `/seller_products?email=${seller.user.email}`, { token: seller.token });
    expect(mine.body).toHaveLength(5);
  });

  it('when the seller at the limit sends a listing again with its Idempotency-Key, then the same answer as the first time, not a refusal', async () => {
    const seller = await shop.signup('Seller');
    await addMany(seller.token, 4);
    const headers = { 'Idempotency-Key': 'fifth-listing' };
    const first = await add(seller.token, 'Fifth', headers);
    expect(first.status).toBe(201);
    const again = await add(seller.token, 'Fifth', headers);
    expect(again.status).toBe(201);
    expect(again.body.insertedId).toBe(first.body.insertedId);
    expect((await add(seller.token, 'Sixth')).status).toBe(429);
  });

  it('when the seller marks one sold or the admin removes one, then a slot is free for the next listing; making a sold one available again needs a slot too', async () => {
    const seller = await shop.signup('Seller');
    const ids = await addMany(seller.token, 5);
    expect((await shop.call('PUT', `/product/sold_status/${ids[0]}`, { token: seller.token })).status).toBe(200);
    expect((await add(seller.token, 'After a sale')).status).toBe(201);
    const admin = await shop.admin();
    expect((await shop.call('DELETE', `/product/${ids[1]}`, { token: admin.token })).status).toBe(200);
    expect((await add(seller.token, 'After a removal')).status).toBe(201);

    const before = await stored();
    const back = await shop.call('PUT', `/product/unsold_status/${ids[0]}`, { token: seller.token });
    expectRefused(back, 'active_listings', /before making another available\.$/);
    expect(await stored()).toEqual(before);
    const sold = ((await shop.call('GET', `/product/${ids[0]}`)).body as { product: Product }).product;
    expect(sold.sold).toBe(true);
  });

  it('when a seller has added 8 this hour, then the next is refused, Retry-After counting to when the first leaves the hour, even with TVs sold since', async () => {
    const seller = await shop.signup('Seller');
    const first = await addMany(seller.token, 5);
    for (const id of first) expect((await shop.call('PUT', `/product/sold_status/${id}`, { token: seller.token })).status).toBe(200);
    await addMany(seller.token, 3);
    const before = await stored();
    const res = await add(seller.token, 'Ninth this hour');
    expectRefused(
      res,
      'listings_per_hour',
      /^You have added 8 TVs in the last hour, the most allowed\. You can add another in (59|60) minutes\.$/,
    );
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await stored()).toEqual(before);
  });

  it('when a seller sends 20 listings at once against a limit of 5, then exactly 5 are stored and the rest are refused with 429', async () => {
    const seller = await shop.signup('Seller');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => add(seller.token, `Parallel ${i}`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array<number>(5).fill(201), ...Array<number>(15).fill(429)]);
    const mine = await shop.call('GET', `/seller_products?email=${seller.user.email}`, { token: seller.token });
    expect((mine.body as Product[]).map((p) => p._id).sort()).toEqual(
      answers
        .filter((a) => a.status === 201)
        .map((a) => a.body.insertedId as string)
        .sort(),
    );
    const listed = await shop.pool.query<{ n: string }>(
      `select count(*) as n from es.events where type = 'ProductListed' and data->>'sellerId' = $1`,
      [seller.user._id],
    );
    expect(Number(listed.rows[0]!.n)).toBe(5);
  });
});
