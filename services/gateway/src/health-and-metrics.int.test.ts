import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type HealthReport, type TransportHealth } from '@tv-shop/platform';
import type { GatewayDeps } from './deps';
import { systemRoutes } from './routes/system';
import { startTestShop, type TestShop } from './testing/harness';

const TOKEN = 'metrics-token-for-the-test-0123456789';

/** One sample's value from Prometheus' text format, found by its name and a label it carries. */
function sample(text: string, name: string, label = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(label));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('health for visitors and for the admin, and metrics for operators', () => {
  let shop: TestShop;
  let bare: TestShop;
  let internal: string;
  beforeAll(async () => {
    const port = await freePort();
    internal = `http://127.0.0.1:${port}`;
    shop = await startTestShop({ METRICS_PORT: String(port), METRICS_TOKEN: TOKEN });
    // With neither METRICS_PORT nor METRICS_TOKEN: what a shop started by a test or a tool serves.
    bare = await startTestShop();
  });
  afterAll(async () => {
    await shop?.stop();
    await bare?.stop();
  });

  it('when a visitor or a buyer asks for health, then only the status is told; the admin gets the detail', async () => {
    const anonymous = await shop.call('GET', '/health');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ status: 'ok' });
    const buyer = await shop.signup('Buyer');
    expect((await shop.call('GET', '/health', { token: buyer.token })).body).toEqual({ status: 'ok' });
    const seller = await shop.signup('Seller');
    expect((await shop.call('GET', '/health', { token: seller.token })).body).toEqual({ status: 'ok' });

    const admin = await shop.call('GET', '/health', { token: (await shop.admin()).token });
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ status: 'ok', database: { ok: true, mode: 'external' }, head: expect.any(Number) });
    expect(admin.body.projections.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['catalog', 'orders', 'users']));
    expect(admin.headers.get('cache-control')).toBe('no-store');
  });

  it('when a policy stalls, then a visitor is told which in a few words and the admin where it stands', async () => {
    await shop.pool.query(
      `insert into public.projection_checkpoints (name, position, updated_at) values ('policy:ghost', 0, now() - interval '1 minute')`,
    );
    try {
      // Stalled once the oldest event it has not applied is older than 5 s (the admin's sign-up at start).
      const first = Number(
        (await shop.pool.query<{ t: string }>(`select extract(epoch from min(recorded_at)) * 1000 as t from es.events`)).rows[0]!.t,
      );
      await new Promise((r) => setTimeout(r, Math.max(0, first + 5500 - Date.now())));
      const anonymous = await shop.call('GET', '/health');
      expect(anonymous.status).toBe(503);
      expect(anonymous.headers.get('retry-after')).toBe('2');
      expect(anonymous.body).toEqual({ status: 'degraded', reason: 'policy ghost stalled' });
      const admin = await shop.call('GET', '/health', { token: (await shop.admin()).token });
      expect(admin.status).toBe(503);
      expect(admin.body).toMatchObject({
        status: 'degraded',
        reason: expect.stringMatching(/^policy ghost stalled at 0 of \d+ for \d+ s$/),
        head: expect.any(Number),
      });
      // The internal listener's /health is for operators: the detail, policies included.
      const detail = await fetch(`${internal}/health`);
      expect(detail.status).toBe(503);
      expect(((await detail.json()) as HealthReport).lag).toContainEqual(
        expect.objectContaining({ name: 'ghost', kind: 'policy', position: 0 }),
      );
    } finally {
      await shop.pool.query(`delete from public.projection_checkpoints where name = 'policy:ghost'`);
    }
    expect((await shop.call('GET', '/health')).status).toBe(200);
  });

  it("when this process's Kafka consumer of replies has crashed for good, then /health says so with 503, the database being fine", async () => {
    // The gateway's health with the shop's own database and a transport as KafkaCommandBus.health()
    // answers once kafkajs gave up (that answer is the Kafka suite's to show, with a real broker).
    let transport: TransportHealth = { status: 'ok' };
    const deps = {
      pool: shop.pool,
      databaseMode: 'external',
      payments: { name: 'sandbox' },
      transport: () => transport,
    } as unknown as GatewayDeps;
    const server = http.createServer(express().use(systemRoutes(deps)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const health = () => fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/health`);
    try {
      expect((await health()).status).toBe(200);
      transport = { status: 'degraded', reason: 'Kafka consumer of replies crashed' };
      const res = await health();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(await res.json()).toEqual({ status: 'degraded', reason: 'Kafka consumer of replies crashed' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when the internal listener is scraped, then it answers Prometheus text with routes by pattern, appends, lag and sockets', async () => {
    const seller = await shop.signup('Seller');
    const product = await shop.addProduct(seller.token);
    expect((await shop.call('GET', `/product/${product._id}`)).status).toBe(200);
    expect((await shop.call('GET', `/product/no-such-id`)).status).toBe(404);
    const socket = await shop.socket();

    const res = await fetch(`${internal}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(
      sample(text, 'tvshop_http_request_duration_seconds_count', 'route="/api/product/:id",status_class="2xx"'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'tvshop_http_request_duration_seconds_count', 'route="/api/product/:id",status_class="4xx"'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'tvshop_http_request_duration_seconds_count', 'method="POST",route="/api/products"')).toBeGreaterThanOrEqual(1);
    // Never a raw URL: an id in a label would make a series per product.
    expect(text).not.toContain(product._id);
    expect(text).not.toContain('no-such-id');
    expect(sample(text, 'tvshop_event_append_duration_seconds_count', 'outcome="ok"')).toBeGreaterThanOrEqual(2);
    for (const name of ['catalog', 'orders', 'users']) {
      expect(sample(text, 'tvshop_consumer_lag_events', `name="${name}"`)).toBe(0);
      expect(sample(text, 'tvshop_consumer_lag_seconds', `name="${name}"`)).toBe(0);
    }
    expect(sample(text, 'tvshop_log_head_position')).toBeGreaterThan(0);
    expect(sample(text, 'tvshop_socketio_open_sockets')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^tvshop_nodejs_eventloop_lag_seconds\{service="shop"\} [\d.e-]+$/m);
    socket.socket.disconnect();
  });

  it('when /metrics is asked on the public port, then 401 without the token or with a wrong one, 200 with it, and 404 where no token is set', async () => {
    const get = (base: string, authorization?: string) => fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
    const none = await get(shop.url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await get(shop.url, `Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await get(shop.url, `Basic ${TOKEN}`)).status).toBe(401);
    const good = await get(shop.url, `Bearer ${TOKEN}`);
    expect(good.status).toBe(200);
    expect(await good.text()).toMatch(/^tvshop_consumer_lag_events\{/m);

    const unset = await get(bare.url, `Bearer ${TOKEN}`);
    expect(unset.status).toBe(404);
    expect(await unset.text()).not.toContain('tvshop_');
    expect((await bare.call('GET', '/health')).body).toEqual({ status: 'ok' });
  });
});
