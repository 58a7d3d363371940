import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  InProcessChangeFeed,
  PostgresEventStore,
  ProjectionRunner,
  createPool,
  freePort,
  startEmbeddedPostgres,
  type EmbeddedServer,
} from '@tv-shop/platform';
import { createTestDatabase } from '@tv-shop/platform/testing';
import { projections } from '@tv-shop/projector';
import { startAll, type Running } from './start';

/*
 * Database faults under a steady write load, against the suite's kind of database:
 *  - embedded (no TEST_DATABASE_URL): a PostgreSQL of this file's own, which it may stop and
 *    kill -9 (the suite's shared server is left alone);
 *  - the machine's server (TEST_DATABASE_URL): a database of this file's own, closed to
 *    connections with ALLOW_CONNECTIONS false; the server itself is never stopped.
 */
const machineServer = Boolean(process.env.TEST_DATABASE_URL);
const root = path.resolve(import.meta.dirname, '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ADMIN = { email: 'admin@faults.test', password: 'admin-password-1' };

interface Target {
  url: string;
  /** Terminates every backend of the app's database from a separate admin connection. */
  terminateAll(): Promise<number>;
  /** Connections are refused for `ms`; resolves when the database takes them again. */
  refuse(ms: number): Promise<void>;
  /** kill -9 of the database server and a start again (embedded only). */
  kill: (() => Promise<void>) | null;
  close(): Promise<void>;
}

async function adminQuery(url: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => {});
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end().catch(() => {});
  }
}

async function embeddedTarget(): Promise<Target> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-faults-pg-'));
  let server: EmbeddedServer = await startEmbeddedPostgres(dir);
  const port = server.port;
  const url = server.url;
  const adminUrl = url.replace(/\/tvshop$/, '/postgres');
  const terminate = async () =>
    (
      await adminQuery(
        adminUrl,
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = 'tvshop' and pid <> pg_backend_pid()`,
      )
    ).rowCount ?? 0;
  return {
    url,
    terminateAll: terminate,
    async refuse(ms) {
      await server.stop(); // fast shutdown: every backend is terminated (57P01), the port closes
      await sleep(ms);
      server = await startEmbeddedPostgres(dir, () => {}, { port });
    },
    kill: async () => {
      await server.kill();
      await sleep(500);
      server = await startEmbeddedPostgres(dir, () => {}, { port });
    },
    async close() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function machineTarget(): Promise<Target> {
  const db = await createTestDatabase('faults');
  await db.pool.end();
  const serverUrl = inject('databaseServerUrl');
  const name = new URL(db.url).pathname.slice(1);
  const terminate = async () =>
    (
      await adminQuery(serverUrl, `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [
        name,
      ])
    ).rowCount ?? 0;
  return {
    url: db.url,
    terminateAll: terminate,
    async refuse(ms) {
      await adminQuery(serverUrl, `alter database ${name} allow_connections false`);
      try {
        await terminate();
        await sleep(ms);
      } finally {
        await adminQuery(serverUrl, `alter database ${name} allow_connections true`);
      }
    },
    kill: null, // other tests share the machine's server: it is never stopped or killed here
    async close() {
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

interface Write {
  key: string;
  body: unknown;
  status: number;
  productId?: string;
  retryAfter?: string | null;
  readModels?: string | null;
  type?: string | null;
}

describe('database faults under a steady write load', () => {
  let target: Target;
  let shop: Running;
  let dataDir: string;
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', onUnhandled);
    process.on('unhandledRejection', onUnhandled);
    target = machineServer ? await machineTarget() : await embeddedTarget();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-faults-'));
    shop = await startAll({
      port: 0,
      databaseUrl: target.url,
      dataDir,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      webDist: path.join(dataDir, 'no-web'),
      // One seller writes for as long as the faults last: the listing limits would refuse it (ADR 0035).
      env: { LISTING_LIMIT_ACTIVE: '0', LISTING_LIMIT_PER_HOUR: '0' },
    });
  });

  afterAll(async () => {
    await shop?.stop();
    await target?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    process.off('uncaughtException', onUnhandled);
    process.off('unhandledRejection', onUnhandled);
  });

  it(`when backends are terminated, connections refused for 5 s${machineServer ? '' : ' and the server killed'}, then the process lives, health tells, read models catch up within 5 s and no acknowledged write is lost or doubled`, async () => {
    const api = `${shop.url}/api`;
    const post = async (p: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${api}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    const signup = await post('/auth/signup', {
      name: 'Fault Seller',
      email: 'seller@faults.test',
      password: 'secret-pass',
      role: 'Seller',
    });
    expect(signup.status).toBe(201);
    const { token } = (await signup.json()) as { token: string };

    // The test's own view of the database, with its own connections (it waits out the outages too).
    const watcher = createPool(target.url, 2);
    const q = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await watcher.query<T>(sql, params)).rows;
    /** Waits until the database answers, then until every projection and policy reached what the log held then. */
    const catchUp = async (since: number) => {
      let head: number | null = null;
      while (head === null) {
        head = await q<{ p: string | null }>('select max(position) as p from es.events')
          .then((r) => Number(r[0]?.p ?? 0))
          .catch(() => null);
        if (head === null) await sleep(100);
      }
      for (;;) {
        const rows = await q<{ behind: string }>('select count(*) as behind from public.projection_checkpoints where position < $1', [
          head,
        ]).catch(() => null);
        if (rows && Number(rows[0]!.behind) === 0) return { head, ms: Date.now() - since };
        if (Date.now() - since > 30_000) throw new Error(`read models did not reach ${head} in 30 s`);
        await sleep(50);
      }
    };

    // Health, sampled all along.
    const health: { t: number; status: number; reason?: string }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const t = Date.now();
        try {
          const res = await fetch(`${api}/health`, { signal: AbortSignal.timeout(5000) });
          const body = (await res.json()) as { reason?: string };
          health.push({ t, status: res.status, ...(body.reason ? { reason: body.reason } : {}) });
        } catch (err) {
          health.push({ t, status: -1, reason: String(err) });
        }
        await sleep(200);
      }
    })();
    const healthyAfter = async (since: number) => {
      for (;;) {
        const res = await fetch(`${api}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
        if (res?.status === 200) return Date.now() - since;
        if (Date.now() - since > 30_000) throw new Error('health did not come back in 30 s');
        await sleep(100);
      }
    };

    const productBody = {
      porduct_name: 'Faulty TV',
      productImage: 'https://example.com/tv.png',
      details: 'Survives outages',
      location: 'Dhaka',
      resale_price: 10000,
      orginal_price: 20000,
      use_duration: '1 year',
      phone_number: '01711111111',
      product_condition: 'Good',
      category_id: 'samsung',
    };
    // A steady write load: three clients of one seller adding products, each with its own Idempotency-Key.
    const writes: Write[] = [];
    let loading = true;
    let n = 0;
    const writer = async () => {
      while (loading) {
        const key = `fault-${++n}`;
        const body = { ...productBody, porduct_name: `Faulty TV ${key}` };
        const res = await post('/products', body, { authorization: `Bearer ${token}`, 'Idempotency-Key': key });
        const answer = (await res.json().catch(() => null)) as { insertedId?: string } | null;
        writes.push({
          key,
          body,
          status: res.status,
          ...(answer?.insertedId ? { productId: answer.insertedId } : {}),
          retryAfter: res.headers.get('retry-after'),
          readModels: res.headers.get('x-read-models'),
          type: res.headers.get('content-type'),
        });
        if (res.status >= 300) await sleep(100);
      }
    };
    const writers = [writer(), writer(), writer()];
    /**
     * From the moment the database is back: a write of our own goes through and is answered only
     * once every read model has it (not `X-Read-Models: behind`), i.e. the projections run again.
     */
    let probes = 0;
    const writeThrough = async (since: number) => {
      for (;;) {
        const key = `probe-${++probes}`;
        const res = await post(
          '/products',
          { ...productBody, porduct_name: `Probe ${key}` },
          { authorization: `Bearer ${token}`, 'Idempotency-Key': key },
        );
        if (res.status === 201) {
          expect(res.headers.get('x-read-models')).toBeNull();
          return Date.now() - since;
        }
        expect(res.status).toBe(503);
        if (Date.now() - since > 30_000) throw new Error('no write went through in 30 s');
        await sleep(100);
      }
    };
    // Each from the moment the database is back, side by side: one after another, the last
    // would also count the time the others took.
    const measure = async (since: number) => {
      const [caught, writeThroughMs, healthyMs] = await Promise.all([catchUp(since), writeThrough(since), healthyAfter(since)]);
      return { catchUpMs: caught.ms, writeThroughMs, healthyMs };
    };
    const measured: Record<string, { catchUpMs: number; writeThroughMs: number; healthyMs: number }> = {};

    await sleep(1500);

    // 1. Every backend of the app terminated at once (57P01 on busy and idle connections alike).
    expect(await target.terminateAll()).toBeGreaterThan(0);
    let back = Date.now();
    measured.terminate = await measure(back);
    await sleep(1000);

    // 2. Connections refused for 5 s.
    await target.refuse(5000);
    back = Date.now();
    measured.refuse = await measure(back);
    await sleep(1000);

    // 3. The database server killed (-9) and started again.
    if (target.kill) {
      await target.kill();
      back = Date.now();
      measured.kill = await measure(back);
    }
    await sleep(1000);

    loading = false;
    await Promise.all(writers);

    // A write answered 503 may or may not have landed: the client retries it with the same key.
    const retried: Write[] = [];
    for (const w of writes.filter((x) => x.status !== 201)) {
      const res = await post('/products', w.body, { authorization: `Bearer ${token}`, 'Idempotency-Key': w.key });
      const answer = (await res.json()) as { insertedId?: string };
      retried.push({ ...w, status: res.status, ...(answer.insertedId ? { productId: answer.insertedId } : {}) });
    }
    await catchUp(Date.now());
    sampling = false;
    await sampler;

    console.info(
      `faults (${machineServer ? 'machine server' : 'embedded'}): ${writes.length} writes, ${writes.filter((w) => w.status === 201).length} acknowledged, ` +
        `${writes.filter((w) => w.status === 503).length} answered 503, ${retried.length} retried; ` +
        `503s from /health: ${health.filter((h) => h.status === 503).length} (e.g. "${health.find((h) => h.status === 503)?.reason}"); ` +
        `after each fault (ms): ${JSON.stringify(measured)}`,
    );

    // The process never died and nothing escaped unhandled.
    expect(unhandled.map(String)).toEqual([]);
    // Every write was answered 201 or 503 (problem+json with Retry-After); never a 500.
    expect([...new Set(writes.map((w) => w.status))].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    for (const w of writes.filter((x) => x.status === 503)) {
      expect(w.retryAfter).toBe('2');
      expect(w.type).toMatch(/application\/problem\+json/);
    }
    expect(writes.filter((w) => w.status === 201).length).toBeGreaterThan(20);
    // No acknowledged write waited out the 10 s for the read models: they were never down that long.
    expect(writes.filter((w) => w.readModels === 'behind').map((w) => w.key)).toEqual([]);
    expect(retried.every((w) => w.status === 201)).toBe(true);

    // Health said so while the database was away, and is well again.
    expect(health.some((h) => h.status === 503 && h.reason)).toBe(true);
    expect((await fetch(`${api}/health`)).status).toBe(200);
    // Back within 5 s of the database returning, after every fault (the kill -9 where the
    // database is this file's own).
    expect(Object.keys(measured)).toEqual(machineServer ? ['terminate', 'refuse'] : ['terminate', 'refuse', 'kill']);
    for (const m of Object.values(measured)) {
      expect(m.catchUpMs).toBeLessThan(5000);
      expect(m.writeThroughMs).toBeLessThan(5000);
      expect(m.healthyMs).toBeLessThan(5000);
    }

    // Every acknowledged write is in the log exactly once, and in the read model.
    const acknowledged = [...writes, ...retried].filter((w) => w.status === 201).map((w) => w.productId!);
    const counts = new Map(
      (
        await q<{ id: string; n: string }>(
          `select data->>'productId' as id, count(*) as n from es.events where type = 'ProductListed' group by 1`,
        )
      ).map((r) => [r.id, Number(r.n)]),
    );
    expect(acknowledged.filter((id) => counts.get(id) !== 1)).toEqual([]);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    const listed = new Set((await q<{ id: string }>('select id from rm_catalog.products')).map((r) => r.id));
    expect(acknowledged.filter((id) => !listed.has(id))).toEqual([]);

    // The read models equal a rebuild from the log, row for row.
    await shop.stop();
    const snapshot = async () => {
      const out: Record<string, string[]> = {};
      for (const p of projections) {
        const tables = await q<{ t: string }>(`select table_name as t from information_schema.tables where table_schema = $1 order by 1`, [
          p.schema,
        ]);
        for (const { t } of tables) {
          out[`${p.schema}.${t}`] = (await q<{ j: string }>(`select to_jsonb(x)::text as j from "${p.schema}"."${t}" x order by 1`)).map(
            (r) => r.j,
          );
        }
      }
      return out;
    };
    const live = await snapshot();
    const store = new PostgresEventStore(watcher);
    for (const p of projections) await new ProjectionRunner(watcher, store, new InProcessChangeFeed(), p).rebuild();
    const rebuilt = await snapshot();
    expect(Object.keys(live).length).toBeGreaterThan(0);
    expect(live).toEqual(rebuilt);
    await store.close();
    await watcher.end();
  }, 120_000);
});

describe('health and readiness', () => {
  it('when a policy is behind the head and its checkpoint has not moved for 5 s, then /api/health answers 503 naming it, and 200 once it is gone', async () => {
    const db = await createTestDatabase('stall');
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-stall-'));
    const shop = await startAll({
      port: 0,
      databaseUrl: db.url,
      dataDir,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      webDist: path.join(dataDir, 'no-web'),
      env: {},
    });
    try {
      const health = async () => {
        const res = await fetch(`${shop.url}/api/health`);
        return { status: res.status, body: (await res.json()) as { status: string; reason?: string } };
      };
      expect((await health()).status).toBe(200);
      expect((await fetch(`${shop.url}/api/ready`)).status).toBe(200);
      expect(shop.state).toBe('ready');
      // A policy whose process has died: its checkpoint, last moved a minute ago, stays at the head
      // the log had then, and a new event (a sign-up) arrives that it will never apply.
      await db.pool.query(
        `insert into public.projection_checkpoints (name, position, updated_at)
           select 'policy:ghost', coalesce(max(position), 0), now() - interval '1 minute' from es.events`,
      );
      const signup = await fetch(`${shop.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Late Buyer', email: 'late@stall.test', password: 'secret-pass', role: 'Buyer' }),
      });
      expect(signup.status).toBe(201);
      const behindSince = Number(
        (await db.pool.query<{ t: string }>(`select extract(epoch from max(recorded_at)) * 1000 as t from es.events`)).rows[0]!.t,
      );
      // Not stalled while the oldest event it waits for is younger than the threshold, however long
      // its checkpoint has been still...
      expect((await health()).status).toBe(200);
      await sleep(Math.max(0, behindSince + 5500 - Date.now()));
      const stalled = await health();
      expect(stalled.status).toBe(503);
      // A visitor is told which one in a few words; where it stands is the admin's to see.
      expect(stalled.body).toEqual({ status: 'degraded', reason: 'policy ghost stalled' });
      await db.pool.query(`delete from public.projection_checkpoints where name = 'policy:ghost'`);
      expect((await health()).status).toBe(200);
    } finally {
      const stopping = shop.stop();
      expect(shop.state).toBe('stopping');
      await stopping;
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('npm start after kill -9', () => {
  const children: ChildProcess[] = [];
  let dataDir: string;

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    const pid = postmasterPid();
    if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return !/\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };
  const postmasterPid = () => {
    const file = path.join(dataDir, 'pg', 'postmaster.pid');
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
  };
  const start = (port: number) => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      WEB_DIST: path.join(dataDir, 'no-web'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    };
    const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    children.push(child);
    return { child, exited, output: () => output };
  };
  const healthy = async (port: number, withinMs: number, started: { exited: Promise<unknown>; output: () => string }) => {
    const t0 = Date.now();
    let gone = false;
    void started.exited.then(() => (gone = true));
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
      if (res?.status === 200) return Date.now() - t0;
      if (gone) throw new Error(`npm start exited: ${started.output()}`);
      if (Date.now() - t0 > withinMs) throw new Error(`not healthy within ${withinMs} ms: ${started.output()}`);
      await sleep(200);
    }
  };

  it('when the server is killed with -9, then npm start exits non-zero, and the next npm start stops the orphaned PostgreSQL and is healthy within 30 s', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-kill9-'));
    const port = await freePort();
    const first = start(port);
    await healthy(port, 90_000, first);
    expect((await fetch(`http://127.0.0.1:${port}/api/ready`)).status).toBe(200);

    // kill -9 of the server process (the child of scripts/start.mjs), as an OOM killer would.
    const server = Number(readFileSync(`/proc/${first.child.pid}/task/${first.child.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
    expect(server).toBeGreaterThan(0);
    const orphan = postmasterPid()!;
    expect(alive(orphan)).toBe(true);
    process.kill(server, 'SIGKILL');
    const ended = await first.exited;
    expect(ended.code).toBe(137); // 128 + SIGKILL: a supervisor restarts it
    expect(alive(orphan)).toBe(true); // its PostgreSQL lives on, holding the data dir

    const second = start(port);
    const ms = await healthy(port, 30_000, second); // throws past 30 s
    expect(alive(orphan)).toBe(false);
    console.info(`npm start after kill -9: healthy in ${ms} ms`);

    // Asked to stop: a clean exit, its PostgreSQL stopped.
    const pid = postmasterPid()!;
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
    expect(alive(pid)).toBe(false);

    // A start that fails says why (here: the port is taken), and leaves no PostgreSQL behind.
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, resolve));
    try {
      const third = start(port);
      const done = await third.exited;
      expect(done.code).not.toBe(0);
      expect(third.output()).toMatch(/could not start.*EADDRINUSE/);
      expect(third.output()).not.toMatch(/"error":"undefined"/);
      const left = postmasterPid();
      expect(left === null || !alive(left)).toBe(true);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 180_000);
});
