import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@tv-shop/contracts';
import { startTestShop, type TestShop } from '../testing/harness';

describe('hostile input: money fields and deeply nested bodies', () => {
  let shop: TestShop;
  let seller: Awaited<ReturnType<TestShop['signup']>>;
  beforeAll(async () => {
    shop = await startTestShop();
    seller = await shop.signup('Seller');
  });
  afterAll(() => shop.stop());

  it('when a price is not a positive finite number or plain decimal, then 400 naming the field, and nothing is listed', async () => {
    const before = ((await shop.call('GET', '/all_products')).body as Product[]).length;
    for (const field of ['resale_price', 'orginal_price']) {
      for (const bad of [
        null,
        '',
        [],
        false,
        true,
        '0x10',
        '1e3',
        0,
        '0',
        -5,
        '-5',
        {},
        '12abc',
        'NaN',
        'Infinity',
        10.123,
        20_000_000,
        0.000001,
        1e-300,
        0.004,
        '0.001',
        // Grouped wrongly: a decimal comma ("1,50"), groups of other sizes, commas at the ends.
        '1,50',
        '38,00',
        '3,8000',
        ',38000',
        '38,000,',
        '38,,000',
        '1,2,000',
        // A first group starting with 0: a decimal comma elsewhere, never 1 TK or 500 TK.
        '0,001',
        '000,001',
        '00,00,001',
        '0,500',
      ]) {
        const res = await shop.call('POST', '/products', { token: seller.token, body: shop.productBody({ [field]: bad }) });
        expect(res.status, `${field}=${JSON.stringify(bad)}`).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
        expect(res.body.field, `${field}=${JSON.stringify(bad)}`).toBe(field);
      }
      // A number too large for JSON's doubles is Infinity once parsed.
      const raw = JSON.stringify(shop.productBody()).replace(/"resale_price":\d+/, '"resale_price":1e400');
      expect((await shop.call('POST', '/products', { token: seller.token, raw })).body.field).toBe('resale_price');
      // Typed too long, it is a number all the same: the answer gives the maximum, not "must be a number".
      for (const huge of ['99999999999999999999', '10,000,001', '9'.repeat(400), 99_999_999_999]) {
        const res = await shop.call('POST', '/products', { token: seller.token, body: shop.productBody({ [field]: huge }) });
        expect(res.status, `${field}=${huge}`).toBe(400);
        expect(res.body, `${field}=${huge}`).toMatchObject({ field, detail: `${field} must be at most 10,000,000 TK` });
      }
    }
    expect(((await shop.call('GET', '/all_products')).body as Product[]).length).toBe(before);
  });

  it('when a price is a JSON number or a decimal string, plain or grouped, then it is taken as TK', async () => {
    const asNumber = await shop.addProduct(seller.token, { resale_price: 1999.5, orginal_price: 4000 });
    expect(asNumber).toMatchObject({ resale_price: 1999.5, orginal_price: 4000 });
    const asString = await shop.addProduct(seller.token, { resale_price: '25000', orginal_price: ' 52000.75 ' });
    expect(asString).toMatchObject({ resale_price: 25000, orginal_price: 52000.75 });
    // Grouped as people write prices: by thousands, or by lakhs.
    const grouped = await shop.addProduct(seller.token, { resale_price: '38,000', orginal_price: '1,20,000.50' });
    expect(grouped).toMatchObject({ resale_price: 38000, orginal_price: 120000.5 });
    const western = await shop.addProduct(seller.token, { resale_price: '9,999.99', orginal_price: '1,000,000' });
    expect(western).toMatchObject({ resale_price: 9999.99, orginal_price: 1000000 });
  });

  it('when a body nests thousands of levels deep, with or without an Idempotency-Key, then 400 on body, never 500', async () => {
    for (const depth of [33, 5_000, 40_000]) {
      // A valid listing with one extra deep field: it passes validation and reaches the fingerprint.
      const raw = JSON.stringify(shop.productBody()).replace(/}$/, `,"extra":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      for (const headers of [{ 'Idempotency-Key': `deep-${depth}` }, {}] as Record<string, string>[]) {
        const res = await shop.call('POST', '/products', { token: seller.token, raw, headers });
        expect(res.status, `depth ${depth}`).toBeLessThan(500);
        expect([400, 413]).toContain(res.status);
        expect(res.body.field).toBe('body');
      }
    }
    const signup = await shop.call('POST', '/auth/signup', {
      raw: `{"name":"x","email":"deep@example.com","password":"secret-pass","role":"Buyer","x":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
      headers: { 'Idempotency-Key': 'deep-signup' },
    });
    expect(signup.status).toBe(400);
    expect(signup.body.field).toBe('body');
    // Ordinary nesting still works.
    const ok = await shop.call('POST', '/products', {
      token: seller.token,
      body: shop.productBody(),
      headers: { 'Idempotency-Key': 'ok-1' },
    });
    expect(ok.status).toBe(201);
  });
  it('when a field is missing, of the wrong type or not one of its choices, then the detail says so in plain words', async () => {
    const missing = await shop.call('POST', '/products', { token: seller.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('porduct_name is required');
    const wrongType = await shop.call('POST', '/products', { token: seller.token, body: shop.productBody({ details: 42 }) });
    expect(wrongType.body).toMatchObject({ field: 'details', detail: 'details must be text' });
    const notANumber = await shop.call('GET', '/products/search?minPrice=x');
    expect(notANumber.status).toBe(400);
    expect(notANumber.body).toMatchObject({ field: 'minPrice', detail: 'minPrice must be a number' });
    const notAChoice = await shop.call('GET', '/products/search?sort=bogus');
    expect(notAChoice.status).toBe(400);
    expect(notAChoice.body).toMatchObject({ field: 'sort', detail: 'sort must be one of newest, price_asc, price_desc' });
    for (const res of [missing, wrongType, notANumber, notAChoice]) expect(res.body.detail).not.toMatch(/Invalid|received/);
  });

  it('when a name, detail or place is only invisible characters (zero-width spaces, joiners), then 400 "is required" naming it, and nothing changes', async () => {
    const before = ((await shop.call('GET', '/all_products')).body as Product[]).length;
    for (const field of ['porduct_name', 'details', 'location']) {
      for (const blank of ['\u200b', ' \u200b\u200c\u200d ', '\u2060\ufeff']) {
        const res = await shop.call('POST', '/products', { token: seller.token, body: shop.productBody({ [field]: blank }) });
        expect(res.status, `${field}=${JSON.stringify(blank)}`).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
        expect(res.body).toMatchObject({ field, detail: `${field} is required` });
      }
    }
    expect(((await shop.call('GET', '/all_products')).body as Product[]).length).toBe(before);
    const rename = await shop.call('PUT', `/users?email=${encodeURIComponent(seller.user.email)}`, {
      token: seller.token,
      body: { name: '\u200b\u200b' },
    });
    expect(rename.status).toBe(400);
    expect(rename.body).toMatchObject({ field: 'name' });
    // Text with a visible character in it, in any script, is taken.
    const bangla = await shop.call('POST', '/products', {
      token: seller.token,
      body: shop.productBody({ porduct_name: '\u200bসনি টিভি' }),
    });
    expect(bangla.status).toBe(201);
  });

  it('when a body is not sent as JSON, then 415 naming the body, and nothing is listed', async () => {
    const before = ((await shop.call('GET', `/seller_products?email=${seller.user.email}`, { token: seller.token })).body as Product[])
      .length;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json']) {
      const res = await shop.call('POST', '/products', {
        token: seller.token,
        raw: JSON.stringify(shop.productBody()),
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(415);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ field: 'body', detail: 'The body must be sent as application/json' });
    }
    // No body at all, as the spec's client sends the sold toggle, is still fine without a type.
    const p = await shop.addProduct(seller.token);
    expect((await shop.call('PUT', `/product/sold_status/${p._id}`, { token: seller.token })).status).toBe(200);
    const after = ((await shop.call('GET', `/seller_products?email=${seller.user.email}`, { token: seller.token })).body as Product[])
      .length;
    expect(after).toBe(before + 1);
  });

  it('when a query parameter is given twice, then 400 says it must be given once', async () => {
    const email = encodeURIComponent(seller.user.email);
    const twice = await shop.call('GET', `/seller_products?email=${email}&email=${email}`, { token: seller.token });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ field: 'email', detail: 'email must be given once, as plain text' });
    const search = await shop.call('GET', '/products/search?limit=5&limit=6');
    expect(search.body).toMatchObject({ field: 'limit', detail: 'limit must be given once, as plain text' });
  });

  it("when a payment's bookingId is not an id, then 404 naming bookingId (the body's field, not the route's)", async () => {
    const buyer = await shop.signup('Buyer');
    for (const path of ['/create-payment-intent', '/payments']) {
      const res = await shop.call('POST', path, { token: buyer.token, body: { bookingId: 'a b', transationId: 'pi_x' } });
      expect([res.status, res.body.field], path).toEqual([404, 'bookingId']);
    }
  });

  it('when the URL is longer than the server reads, then 431 in problem+json, and the server goes on', async () => {
    const res = await shop.call('GET', `/product/${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 431, detail: 'The request line and headers are larger than 16 KB' });
    expect((await shop.call('GET', '/categories')).status).toBe(200);
  });

  it("when a write goes to a path outside /api (the original server's), then a problem+json 404 names the route", async () => {
    for (const [method, path] of [
      ['POST', '/products'],
      ['DELETE', '/product/x'],
      ['PUT', '/users?email=a@b.co'],
    ] as const) {
      const res = await fetch(`${shop.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(((await res.json()) as { detail: string }).detail).toBe(`No route ${method} ${path}`);
    }
  });
});
