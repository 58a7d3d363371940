import { randomUUID } from 'node:crypto';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatchUpAnswer, ChangePush } from '@tv-shop/contracts';
import { PostgresEventStore, RedisChangeFeed, createPool, migrate, projectionMigrations } from '@tv-shop/platform';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { startProjector } from '@tv-shop/projector';
import { drawTv } from '@tv-shop/images';
import { startTestShop, type TestShop } from './testing/harness';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await RedisChangeFeed.connect({ url: redisUrl, channel: 'tvshop:probe' }).then(
  (f) => f.close().then(() => true),
  () => false,
);
if (!redisUp) console.warn(`Redis at ${redisUrl} is not reachable: the several-gateways test is skipped`);

/** The projector in its own process and two gateways with PROJECTOR=external, joined by Redis. */
describe.skipIf(!redisUp)('several gateways and a separate projector over Redis', () => {
  let a: TestShop;
  let b: TestShop;
  const stops: (() => Promise<unknown>)[] = [];
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    db = await createTestDatabase('gateways');
    const channel = `tvshop:test:${randomUUID()}`;
    // Gateways side by side share the token secret (else each generates its own under its data dir).
    env = { REDIS_URL: redisUrl, REDIS_CHANNEL: channel, PROJECTOR: 'external', JWT_SECRET: randomUUID(), IMAGE_STORE: 'postgres' };
    const pool = createPool(db.url, 5);
    const store = new PostgresEventStore(pool);
    await PostgresEventStore.migrate(pool);
    // Stand-in for `npm run projector -- run`, publishing on a channel of this run only.
    const feed = await RedisChangeFeed.connect({ url: redisUrl, channel });
    await migrate(pool, 'projections', projectionMigrations);
    const projector = await startProjector({ pool, store, feed });
    stops.push(
      () => projector.stop(),
      () => feed.close(),
      () => store.close(),
      () => pool.end(),
    );
    a = await startTestShop(env, db);
    b = await startTestShop(env, { ...db, drop: async () => {} });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    for (const s of stops.reverse()) await s();
  });

  it('when a page comes to a gateway that started after its last read (a restart, another gateway behind the balancer), then catch_up there says to read its lists again', async () => {
    const seller = await a.signup('Seller');
    const before = Number((await a.call('GET', '/advertise_products')).headers.get('x-position'));
    const p = await a.addProduct(seller.token);
    await a.call('PUT', `/product/get_advertise/${p._id}`, { token: seller.token });
    const c = await startTestShop(env, { ...db, drop: async () => {} });
    const socket = connect(c.url, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    try {
      await new Promise((r) => socket.once('connect', () => r(null)));
      const ask = (since: number) => new Promise<CatchUpAnswer>((resolve) => socket.emit('catch_up', since, resolve));
      // The listing and its advertising came before this gateway ran: it never kept them.
      expect(await ask(before)).toMatchObject({ resync: true, changes: [] });
      // A page read from it is answered from what it keeps.
      const now = Number((await c.call('GET', '/advertise_products')).headers.get('x-position'));
      expect(await ask(now)).not.toHaveProperty('resync');
    } finally {
      socket.disconnect();
      await c.stop();
    }
  });

  it('when a seller writes through one gateway, then a socket on the other hears it and reads there see it at once', async () => {
    const seller = await a.signup('Seller');
    const socket = connect(b.url, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    const pushes: ChangePush[] = [];
    socket.on('change', (p) => pushes.push(p));
    await new Promise((r) => socket.once('connect', () => r(null)));
    const p = await a.addProduct(seller.token);
    await expect.poll(() => pushes.some((x) => x.entity === 'product' && x.id === p._id), { timeout: 2000 }).toBe(true);
    socket.disconnect();

    const res = await b.call('PUT', `/product/sold_status/${p._id}`, { token: seller.token });
    expect(res.status).toBe(200);
    const seen = await b.call('GET', '/all_products');
    expect(seen.body.find((x: { _id: string }) => x._id === p._id).sold).toBe(true);
    // The projections are listed for the admin only; any gateway answers the same.
    const health = (await b.call('GET', '/health', { token: (await b.admin()).token })).body;
    expect(health.projections.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['catalog', 'orders', 'users']));
  });

  it('when a photo is uploaded through one gateway (IMAGE_STORE=postgres), then the other serves the same bytes', async () => {
    const seller = await a.signup('Seller');
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(drawTv(120, 40, 30))]), 'tv.png');
    const up = await a.call('POST', '/images', { form, token: seller.token });
    expect(up.status).toBe(201);
    const url = up.body.data.url as string;
    const [fromA, fromB] = await Promise.all([a.url, b.url].map((base) => fetch(`${base}${url}`)));
    expect(fromB!.status).toBe(200);
    expect(fromB!.headers.get('content-type')).toBe('image/png');
    expect(Buffer.compare(Buffer.from(await fromB!.arrayBuffer()), Buffer.from(await fromA!.arrayBuffer()))).toBe(0);
  });
});
