import jwt from 'jsonwebtoken';
import { io as connect } from 'socket.io-client';
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

  it('given no CORS_ORIGINS, when a page on another origin calls, then it gets no allow-origin header (same origin only)', async () => {
    const res = await fetch(`${shop.base}/all_products`, { headers: { Origin: 'http://client.example:8080' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

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

describe("the spec's client from another origin: CORS and visitors with a stale token", () => {
  const ALLOWED = 'http://client.example:8080';
  const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ CORS_ORIGINS: `${ALLOWED}, http://second.example`, JWT_SECRET: SECRET });
  });
  afterAll(async () => {
    await shop.stop();
  });
  const raw = (method: string, path: string, headers: Record<string, string>) => fetch(`${shop.base}${path}`, { method, headers });

  it('when an allowed origin sends a preflight, then the methods and headers the API uses are allowed, without credentials', async () => {
    const res = await raw('OPTIONS', '/bookings', {
      Origin: ALLOWED,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key',
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,DELETE');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('authorization,content-type,idempotency-key,x-request-id');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it('when an allowed origin makes a simple request, then the answer allows that origin and exposes X-Position', async () => {
    for (const origin of [ALLOWED, 'http://second.example']) {
      const res = await raw('GET', '/all_products', { Origin: origin });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Position/);
    }
    // An error answer carries the header too, so the page can read the problem.
    const missing = await raw('GET', '/products/no-such-category', { Origin: ALLOWED });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('when another origin calls or sends a preflight, then no allow-origin header is given', async () => {
    for (const origin of ['http://evil.example', 'http://client.example:8081', 'null']) {
      const simple = await raw('GET', '/all_products', { Origin: origin });
      expect(simple.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await raw('OPTIONS', '/bookings', { Origin: origin, 'Access-Control-Request-Method': 'POST' });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    }
  });

  it('when a socket connects from an allowed origin, its own origin or no origin, then it is let in; from another origin, refused', async () => {
    const own = new URL(shop.url).origin;
    const tryConnect = (origin: string | null, transport: 'websocket' | 'polling') =>
      new Promise<boolean>((resolve) => {
        const s = connect(shop.url, {
          path: '/socket.io',
          transports: [transport],
          reconnection: false,
          timeout: 3000,
          extraHeaders: origin ? { Origin: origin } : {},
        });
        s.once('connect', () => {
          s.disconnect();
          resolve(true);
        });
        s.once('connect_error', () => {
          s.disconnect();
          resolve(false);
        });
      });
    for (const transport of ['websocket', 'polling'] as const) {
      expect(await tryConnect(ALLOWED, transport)).toBe(true);
      expect(await tryConnect(own, transport)).toBe(true);
      expect(await tryConnect(null, transport)).toBe(true);
      expect(await tryConnect('http://evil.example', transport)).toBe(false);
    }
  });

  it('when a public list is called with any kind of bad token, then it answers as to a visitor; a protected call answers 401', async () => {
    const seller = await shop.signup('Seller');
    const p = await shop.addProduct(seller.token, { resale_price: 3300 });
    await shop.call('PUT', `/product/get_advertise/${p._id}`, { token: seller.token });
    const gone = await shop.signup('Buyer');
    const admin = await shop.admin();
    expect((await shop.call('DELETE', `/users/${gone.user._id}`, { token: admin.token })).status).toBe(200);
    const claims = { email: 'x@example.com', role: 'Buyer' };
    const badTokens: Record<string, string> = {
      null: 'bearer null',
      undefined: 'Bearer undefined',
      empty: 'Bearer ',
      nothing: 'Bearer',
      malformed: 'Bearer abc.def.ghi',
      notBearer: 'Basic dXNlcjpwYXNz',
      expired: `Bearer ${jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 }, SECRET, { subject: seller.user._id, issuer: 'tv-shop' })}`,
      foreign: `Bearer ${jwt.sign(claims, 'someone-elses-secret-0123456789', { subject: seller.user._id, issuer: 'tv-shop', expiresIn: '1h' })}`,
      otherIssuer: `Bearer ${jwt.sign(claims, SECRET, { subject: seller.user._id, issuer: 'elsewhere', expiresIn: '1h' })}`,
      deletedAccount: `Bearer ${gone.token}`,
    };
    const asVisitor = async (path: string) => (await shop.call('GET', path)).body;
    const publicCalls = ['/all_products', '/advertise_products', '/products/samsung', '/categories', '/blogs'];
    const visitorAnswers = await Promise.all(publicCalls.map(asVisitor));
    for (const [kind, authorization] of Object.entries(badTokens)) {
      for (const [i, path] of publicCalls.entries()) {
        const res = await shop.call('GET', path, { headers: { authorization } });
        expect([kind, path, res.status]).toEqual([kind, path, 200]);
        expect(res.body).toEqual(visitorAnswers[i]);
      }
      for (const [method, path] of [
        ['GET', `/bookings?email=${seller.user.email}`],
        ['GET', `/seller_products?email=${seller.user.email}`],
        ['POST', '/bookings'],
        ['GET', `/jwt?email=${seller.user.email}`],
        ['PUT', `/users?email=${seller.user.email}`],
        ['GET', `/users_admin/${seller.user.email}`],
      ] as const) {
        const res = await shop.call(method, path, { headers: { authorization }, ...(method === 'GET' ? {} : { body: {} }) });
        expect([kind, path, res.status]).toEqual([kind, path, 401]);
        expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      }
    }
    // The reason is kept for the protected call: an expired session says so.
    const expired = await shop.call('GET', `/bookings?email=${seller.user.email}`, { headers: { authorization: badTokens.expired! } });
    expect(expired.body.detail).toMatch(/invalid or expired/);
    const deleted = await shop.call('GET', `/bookings?email=${gone.user.email}`, { headers: { authorization: badTokens.deletedAccount! } });
    expect(deleted.body.detail).toMatch(/no longer exists/);
  });
});
