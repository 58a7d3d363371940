// Smoke test of the whole stack in containers (docker-compose.yml), through the gateway only, as a
// browser would use it. Run by `npm run test:compose` (scripts/test-compose.mjs), which starts the
// stack and passes its address in TVSHOP_COMPOSE_URL; not part of `npm test`.
import sharp from 'sharp';
import { io, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuthAnswer, Booking, Category, ChangePush, Product } from '@tv-shop/contracts';

const base = process.env.TVSHOP_COMPOSE_URL ?? '';
// Given by scripts/test-compose.mjs: the admin's password, the gateway's METRICS_TOKEN, the projector's internal listener.
const adminPassword = process.env.TVSHOP_COMPOSE_ADMIN_PASSWORD ?? '';
const metricsToken = process.env.TVSHOP_COMPOSE_METRICS_TOKEN ?? '';
const projectorMetrics = process.env.TVSHOP_COMPOSE_METRICS_URL ?? '';
const api = `${base}/api`;
const run = Date.now().toString(36);

interface Answer {
  status: number;
  type: string | null;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each step checks the shape it needs
}
async function call(method: string, path: string, opts: { token?: string; body?: unknown; form?: FormData } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${api}${path}`, {
    method,
    headers,
    body: opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    signal: AbortSignal.timeout(15_000),
  });
  const type = res.headers.get('content-type');
  const text = await res.text();
  return { status: res.status, type, body: type?.includes('json') && text ? JSON.parse(text) : text };
}
const expectStatus = (res: Answer, status: number) =>
  expect(res.status, `${status} expected, got ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status);

async function signup(role: 'Seller' | 'Buyer'): Promise<AuthAnswer> {
  const email = `${role.toLowerCase()}.${run}@compose.example.com`;
  const res = await call('POST', '/auth/signup', { body: { name: `Compose ${role}`, email, password: 'compose-secret', role } });
  expectStatus(res, 201);
  expect(res.body.user).toMatchObject({ email, role });
  expect(typeof res.body.token).toBe('string');
  return res.body;
}

describe.skipIf(!base)('TV Shop in containers (docker compose), through the gateway', () => {
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((s) => s.disconnect()));

  it('answers health (the detail to the admin only) and metrics, and serves the web app', async () => {
    const open = await call('GET', '/health');
    expectStatus(open, 200);
    expect(open.body).toEqual({ status: 'ok' });
    const login = await call('POST', '/auth/login', { body: { email: 'admin@tvshop.local', password: adminPassword } });
    expectStatus(login, 200);
    const health = await call('GET', '/health', { token: login.body.token });
    expectStatus(health, 200);
    expect(health.body.status).toBe('ok');
    expect(health.body.database).toEqual({ ok: true, mode: 'external' });
    expect(health.body.projections.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['catalog', 'orders', 'users']));
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^tvshop_http_request_duration_seconds_count\{/m);
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const projector = await (await fetch(`${projectorMetrics}/metrics`)).text();
    expect(projector).toMatch(/^tvshop_consumer_lag_events\{.*name="catalog"/m);
    expect(projector).toMatch(/^tvshop_kafka_consumer_lag_offsets\{/m);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('a seller lists a TV, another client hears it live, a buyer books and pays, and the TV shows as sold', async () => {
    const seller = await signup('Seller');
    const buyer = await signup('Buyer');

    // A second client, as another open browser: an anonymous socket hears every listing change.
    const watcher = io(base, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    sockets.push(watcher);
    const pushes: ChangePush[] = [];
    watcher.on('change', (p: ChangePush) => pushes.push(p));
    await new Promise<void>((resolve, reject) => {
      watcher.once('connect', () => resolve());
      watcher.once('connect_error', reject);
    });

    // The picture goes to the image host first, as the web app's form does.
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#1f6feb' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'tv.png');
    const uploaded = await call('POST', '/images', { token: seller.token, form });
    expectStatus(uploaded, 201);
    expect(uploaded.body.success).toBe(true);
    const imageUrl: string = uploaded.body.data.url;
    expect(imageUrl).toMatch(/^\/api\/images\//);
    const image = await fetch(`${base}${imageUrl}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);

    const categories = await call('GET', '/categories');
    expectStatus(categories, 200);
    const category = (categories.body as Category[])[0];
    expect(category, 'the catalog seeds its categories').toBeDefined();

    const listed = await call('POST', '/products', {
      token: seller.token,
      body: {
        porduct_name: `Compose test TV ${run}`,
        productImage: imageUrl,
        details: 'Listed by the compose smoke test',
        location: 'Dhaka',
        resale_price: 21000,
        orginal_price: 48000,
        use_duration: '2 years',
        phone_number: '01711111111',
        product_condition: 'Good',
        category_id: category!._id,
      },
    });
    expectStatus(listed, 201);
    expect(listed.body).toMatchObject({ acknowledged: true });
    const productId: string = listed.body.insertedId;
    expect(productId).toBeTruthy();

    await expect
      .poll(() => pushes.find((p) => p.entity === 'product' && p.id === productId && p.op === 'upsert'), { timeout: 10_000 })
      .toMatchObject({ row: { _id: productId, sold: false, productImage: imageUrl } });

    // Writes answer once the read models have them, so the list already shows it.
    const before = await call('GET', '/all_products');
    expectStatus(before, 200);
    expect((before.body as Product[]).find((p) => p._id === productId)).toMatchObject({ sold: false, resale_price: 21000 });

    const booked = await call('POST', '/bookings', {
      token: buyer.token,
      body: { product_id: productId, phone_number: '01800000000', meeting_location: 'Mirpur 10' },
    });
    expectStatus(booked, 201);
    const bookingId: string = booked.body.insertedId;
    expect(bookingId).toBeTruthy();

    const intent = await call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } });
    expectStatus(intent, 200);
    expect(intent.body).toMatchObject({ provider: 'sandbox', amount: 21000 * 100 });
    const confirmed = await call('POST', '/payment-sandbox/confirm', {
      body: {
        clientSecret: intent.body.clientSecret,
        card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' },
        billing_details: { name: 'Compose Buyer', email: buyer.user.email },
      },
    });
    expectStatus(confirmed, 200);
    expect(confirmed.body.error).toBeUndefined();
    expect(confirmed.body.paymentIntent).toMatchObject({ id: intent.body.paymentIntentId, status: 'succeeded' });

    const paid = await call('POST', '/payments', {
      token: buyer.token,
      body: { bookingId, transationId: intent.body.paymentIntentId },
    });
    expectStatus(paid, 200);
    expect(paid.body).toMatchObject({ acknowledged: true });

    const after = await call('GET', '/all_products');
    expect((after.body as Product[]).find((p) => p._id === productId)?.sold ?? true).toBe(true);
    const bookings = await call('GET', `/bookings?email=${encodeURIComponent(buyer.user.email)}`, { token: buyer.token });
    expectStatus(bookings, 200);
    expect((bookings.body as Booking[]).find((b) => b._id === bookingId)).toMatchObject({ status: 'paid', paid: true });
    await expect
      .poll(() => pushes.some((p) => p.entity === 'product' && p.id === productId && (p.op === 'remove' || p.row.sold)), {
        timeout: 10_000,
      })
      .toBe(true);
  });
});
