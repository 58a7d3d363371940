import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';

/** What the test uses of scripts/stack.mjs (plain JavaScript, so typed here). */
interface Stack {
  urls: string[];
  kill(name: string, signal?: string): Promise<void>;
  restart(name: string): Promise<void>;
  stop(): Promise<void>;
}
type StartStack = (opts: Record<string, unknown>) => Promise<Stack>;

const script = pathToFileURL(path.resolve(import.meta.dirname, '../../scripts/stack.mjs')).href;
const PORT = 3300;

async function call(base: string, method: string, url: string, opts: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(45_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** A browser's live connection: every change pushed to it, by id. */
function browser(base: string) {
  const socket: Socket = connect(base, { path: '/socket.io', transports: ['websocket'], reconnection: true });
  const seen = new Set<string>();
  socket.on('change', (p: { entity: string; id: string }) => {
    if (p.entity === 'product') seen.add(p.id);
  });
  return { socket, seen, ready: new Promise((r) => socket.once('synced', r)) };
}

/**
 * The cluster of `npm run stack` (three services, the projector host, two gateways) over a real
 * Kafka broker, under a steady write load, while one service process and then the consumer host
 * are killed with -9 and started again: every acknowledged write is stored once and projected
 * once, the consumers catch up, and browsers on both gateways saw every change.
 */
describe('the whole stack over Kafka, under load, with processes killed', () => {
  let db: TestDatabase;
  let dataDir: string;
  let stack: Stack;
  const browsers: ReturnType<typeof browser>[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('stack');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-stack-'));
    const { startStack } = (await import(script)) as { startStack: StartStack };
    stack = await startStack({
      port: PORT,
      // Ports of its own: the partition test's stack runs beside it, and a developer's may too.
      processes: { identity: { port: 4301 }, catalog: { port: 4302 }, orders: { port: 4303 } },
      quiet: !process.env.STACK_LOGS,
      databaseUrl: db.url,
      kafkaBrokers: inject('kafkaBrokers'),
      env: {
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: 'stack-admin-password',
        JWT_SECRET: randomUUID(),
        REDIS_CHANNEL: `tvshop:stack:${randomUUID()}`,
        LOG_LEVEL: 'warn',
        // The write load is one seller listing without pause: the listing limits are off (ADR 0035).
        LISTING_LIMIT_ACTIVE: '0',
        LISTING_LIMIT_PER_HOUR: '0',
      },
    });
  });
  afterAll(async () => {
    browsers.forEach((b) => b.socket.disconnect());
    await stack?.stop();
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'when catalog and then the projector host are killed -9 under load and started again, nothing acknowledged is lost or doubled and both gateways push every change',
    { timeout: 240_000 },
    async () => {
      const [a, b] = stack.urls as [string, string];
      for (const base of [a, b]) browsers.push(browser(base));
      await Promise.all(browsers.map((x) => x.ready));
      const signup = await call(a, 'POST', '/auth/signup', {
        body: { name: 'Stack Seller', email: `stack.${randomUUID().slice(0, 8)}@example.com`, password: 'secret-pass', role: 'Seller' },
      });
      expect(signup.status).toBe(201);
      const token = signup.body!.token as string;

      // A steady load: one listing every ~100 ms, alternately through each gateway.
      const acknowledged: string[] = [];
      const refused: number[] = [];
      let writing = true;
      let n = 0;
      const load = (async () => {
        while (writing) {
          const base = n % 2 === 0 ? a : b;
          const res = await call(base, 'POST', '/products', {
            token,
            body: {
              porduct_name: `Stack TV ${++n}`,
              productImage: 'https://example.com/tv.png',
              details: 'Bright panel, remote included',
              location: 'Dhaka',
              resale_price: 25000,
              orginal_price: 52000,
              use_duration: '2 years',
              phone_number: '01711111111',
              product_condition: 'Good',
              category_id: 'samsung',
            },
          }).catch(() => ({ status: 0, body: null }));
          if (res.status === 201) acknowledged.push(res.body!.insertedId as string);
          else refused.push(res.status);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();

      await new Promise((r) => setTimeout(r, 3000));
      await stack.kill('catalog');
      await new Promise((r) => setTimeout(r, 2000));
      await stack.restart('catalog');
      await new Promise((r) => setTimeout(r, 3000));
      await stack.kill('projector');
      await new Promise((r) => setTimeout(r, 2000));
      await stack.restart('projector');
      await new Promise((r) => setTimeout(r, 3000));
      writing = false;
      await load;

      expect(acknowledged.length).toBeGreaterThan(20);
      // A write that met a dead service is refused honestly (503), never a 500.
      expect(refused.filter((s) => s !== 503 && s !== 0)).toEqual([]);

      // Stored once: exactly one ProductListed per acknowledged listing, none without an answer doubled.
      const { rows } = await db.pool.query<{ stream_id: string; n: string }>(
        `select stream_id, count(*) as n from es.events where type = 'ProductListed' group by stream_id`,
      );
      const listed = new Map(rows.map((r) => [r.stream_id.replace(/^product-/, ''), Number(r.n)]));
      for (const id of acknowledged) expect(listed.get(id)).toBe(1);
      expect([...listed.values()].every((count) => count === 1)).toBe(true);

      // Projected once, on both gateways, and the consumers caught up with the log.
      const head = Number((await db.pool.query<{ head: string }>('select max(position) as head from es.events')).rows[0]!.head);
      await expect
        .poll(
          async () => {
            const { rows: cps } = await db.pool.query<{ position: string }>('select position from public.projection_checkpoints');
            return cps.every((c) => Number(c.position) >= head);
          },
          { timeout: 15_000, interval: 200 },
        )
        .toBe(true);
      for (const base of [a, b]) {
        const all = (await call(base, 'GET', '/all_products')).body as unknown as { _id: string }[];
        const mine = all.filter((p) => acknowledged.includes(p._id));
        expect(mine.map((p) => p._id).sort()).toEqual([...acknowledged].sort());
      }
      // Every browser, on either gateway, was told of every acknowledged listing.
      for (const x of browsers) await expect.poll(() => acknowledged.filter((id) => !x.seen.has(id)), { timeout: 10_000 }).toEqual([]);
    },
  );
});
