import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product, ProductPageAnswer, ProductSearchAnswer, SellerPageAnswer } from '@tv-shop/contracts';
import { startTestShop, type TestShop } from '../testing/harness';

/** Search, the product page and the seller page, through real HTTP over the catalog's read model. */
describe('search, product and seller pages', () => {
  let shop: TestShop;
  let seller: Awaited<ReturnType<TestShop['signup']>>;
  const ids: Record<string, string> = {};
  const search = async (query: string) => {
    const res = await shop.call('GET', `/products/search?${query}`);
    return { status: res.status, body: res.body as ProductSearchAnswer & { field?: string; errors?: { field: string }[] } };
  };
  const names = (items: Product[]) => items.map((p) => p.porduct_name);

  beforeAll(async () => {
    shop = await startTestShop();
    seller = await shop.signup('Seller', 'Rahim Electronics');
    const listings = [
      {
        key: 'samsung',
        porduct_name: 'Samsung 43" Crystal UHD',
        category_id: 'samsung',
        resale_price: 25000,
        location: 'Dhanmondi, Dhaka',
      },
      { key: 'sony', porduct_name: 'Sony Bravia 55" X80J', category_id: 'sony', resale_price: 61000, location: 'Gulshan, Dhaka' },
      { key: 'lg', porduct_name: 'LG 32" HD Smart', category_id: 'lg', resale_price: 14500, location: 'Chattogram' },
      { key: 'samsung2', porduct_name: 'Samsung 32" Smart', category_id: 'samsung', resale_price: 12000, location: 'Mirpur, Dhaka' },
      { key: 'sold', porduct_name: 'Samsung 50" sold one', category_id: 'samsung', resale_price: 20000, location: 'Dhaka' },
    ];
    for (const { key, ...body } of listings) ids[key] = (await shop.addProduct(seller.token, body))._id;
    expect((await shop.call('PUT', `/product/sold_status/${ids.sold}`, { token: seller.token })).status).toBe(200);
  });
  afterAll(() => shop.stop());

  it('when a buyer searches a misspelt brand, then the brand is found, and sold TVs only when asked', async () => {
    const found = await search('q=samsng');
    expect(found.status).toBe(200);
    expect(names(found.body.items).sort()).toEqual(['Samsung 32" Smart', 'Samsung 43" Crystal UHD']);
    expect(found.body.total).toBe(2);
    expect(found.body.position).toBeGreaterThan(0);
    const withSold = await search('q=samsung&sold=any');
    expect(withSold.body.total).toBe(3);
    expect(names((await search('sold=true')).body.items)).toEqual(['Samsung 50" sold one']);
  });

  it('when a buyer types part of a word, a whole word, words from the details or a word no TV has, then each finds what it should', async () => {
    // A prefix finds the words it starts; a whole word finds itself; all words must match.
    expect(names((await search('q=sam')).body.items).sort()).toEqual(['Samsung 32" Smart', 'Samsung 43" Crystal UHD']);
    expect(names((await search('q=brav')).body.items)).toEqual(['Sony Bravia 55" X80J']);
    expect(names((await search('q=smart%2032')).body.items).sort()).toEqual(['LG 32" HD Smart', 'Samsung 32" Smart']);
    expect(names((await search('q=samsung%20smart')).body.items)).toEqual(['Samsung 32" Smart']);
    // The details and the place are searched too (the harness describes every TV so).
    expect((await search('q=remote%20included')).body.total).toBe(4);
    expect(names((await search('q=chattogram')).body.items)).toEqual(['LG 32" HD Smart']);
    // A word nothing is close to finds nothing rather than everything.
    expect((await search('q=zzzzqqq')).body).toMatchObject({ items: [], total: 0, nextCursor: null });
  });

  it('when filtered by price and location and sorted by price, then only matching TVs come, cheapest first', async () => {
    const res = await search('minPrice=10000&maxPrice=30000&location=dhaka&sort=price_asc');
    expect(names(res.body.items)).toEqual(['Samsung 32" Smart', 'Samsung 43" Crystal UHD']);
    // Grouped as people write prices: the same search.
    expect(names((await search('minPrice=10,000&maxPrice=30,000&location=dhaka&sort=price_asc')).body.items)).toEqual(
      names(res.body.items),
    );
    expect(names((await search('category=samsung&sort=price_desc')).body.items)).toEqual(['Samsung 43" Crystal UHD', 'Samsung 32" Smart']);
    expect(names((await search('condition=Excellent')).body.items)).toEqual([]);
  });

  it('when the results come a page at a time, then following nextCursor gives each TV once, in order, and then null', async () => {
    for (const sort of ['newest', 'price_asc', 'price_desc']) {
      const all = (await search(`sort=${sort}&limit=60`)).body.items.map((p) => p._id);
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await search(`sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.body.items.length).toBeLessThanOrEqual(2);
        paged.push(...page.body.items.map((p) => p._id));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(paged).toEqual(all);
      expect(all).toHaveLength(4);
    }
    // A cursor of one sort, used with another, is refused: it would compare a time with prices.
    const newest = (await search('sort=newest&limit=1')).body.nextCursor!;
    const mixed = await search(`sort=price_asc&limit=1&cursor=${newest}`);
    expect([mixed.status, mixed.body.field]).toEqual([400, 'cursor']);
  });

  it('when the query is malformed, then the answer is a 400 naming the field', async () => {
    for (const [query, field] of [
      ['cursor=not-ours', 'cursor'],
      // Well formed, but its id holds a NUL (PostgreSQL refuses one as a parameter: it was a 500).
      [`cursor=${Buffer.from(JSON.stringify(['1', '\u0000'])).toString('base64url')}`, 'cursor'],
      [`cursor=${Buffer.from(JSON.stringify(['1', '\u0000', 'newest'])).toString('base64url')}`, 'cursor'],
      ['minPrice=500&maxPrice=100', 'minPrice'],
      ['limit=500', 'limit'],
      // Numbers are digits: hex, exponents and blanks are refused, not read as 16, 10 or 0.
      ['minPrice=0x10', 'minPrice'],
      ['minPrice=1,50', 'minPrice'],
      ['maxPrice=0,500', 'maxPrice'],
      ['maxPrice=', 'maxPrice'],
      ['minPrice=%20', 'minPrice'],
      ['limit=1e1', 'limit'],
      ['sort=random', 'sort'],
      ['condition=Broken', 'condition'],
      // A filter it does not take is named, not ignored (which would answer every brand).
      ['brand=sony', 'brand'],
      ['page=2', 'page'],
    ] as const) {
      const res = await shop.call('GET', `/products/search?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(JSON.stringify(res.body)).toContain(`"${field}"`);
    }
  });

  it('when a product page and a seller page are opened, then they show the product, the seller and what the seller still sells', async () => {
    const page = await shop.call('GET', `/product/${ids.samsung}`);
    expect(page.status).toBe(200);
    const body = page.body as ProductPageAnswer;
    expect(body.product).toMatchObject({ _id: ids.samsung, porduct_name: 'Samsung 43" Crystal UHD', resale_price: 25000 });
    expect(body.product.sellerId).toBe(seller.user._id);
    expect(body.seller).toMatchObject({ _id: seller.user._id, name: 'Rahim Electronics', verified: false, availableCount: 4 });
    expect(Date.parse(body.seller!.memberSince)).toBeGreaterThan(Date.now() - 3600_000);

    const sellerPage = await shop.call('GET', `/sellers/${seller.user._id}`);
    expect(sellerPage.status).toBe(200);
    const sp = sellerPage.body as SellerPageAnswer;
    expect(sp.seller.availableCount).toBe(4);
    expect(sp.listings.map((p) => p._id)).not.toContain(ids.sold);
    expect(sp.listings).toHaveLength(4);

    expect((await shop.call('GET', '/product/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await shop.call('GET', '/sellers/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    const buyer = await shop.signup('Buyer');
    expect((await shop.call('GET', `/sellers/${buyer.user._id}`)).status).toBe(404);
  });
});
