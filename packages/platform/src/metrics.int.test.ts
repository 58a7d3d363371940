import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessChangeFeed } from './change-feed/in-process';
import { freePort } from './db/embedded';
import { migrate } from './db/migrate';
import { PostgresEventStore } from './event-store/postgres';
import type { EventStore } from './event-store/types';
import {
  bearerTokenMatches,
  checkHealth,
  createMetrics,
  instrumentEventStore,
  metricsListenerFromEnv,
  readLag,
  serveMetrics,
  watchLag,
  type HealthReport,
  type Metrics,
} from './metrics';
import { policyCheckpoint, projectionMigrations, setCheckpoint } from './projections/checkpoints';
import { ProjectionRunner } from './projections/runner';
import type { Projection } from './projections/types';
import { createTestDatabase, type TestDatabase } from './testing';
import { ev } from './testing/event-store-contract';

/** A projection that only counts: enough to move a checkpoint. */
const counter: Projection = {
  name: 'counter',
  schema: 'rm_counter',
  setup: 'create table counts (n int not null); insert into counts values (0);',
  handlers: {
    Counted: async (_e, { db }) => {
      await db.query('update counts set n = n + 1');
    },
  },
};

/** One sample's value from Prometheus' text format, found by its name and a label it carries. */
function sample(text: string, name: string, label = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(label));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics: lag, appends and the internal listener', () => {
  let db: TestDatabase;
  let raw: PostgresEventStore;
  let store: EventStore;
  let metrics: Metrics;
  let served: { url: string; close(): Promise<void> } | null;
  const scrape = async () => {
    const res = await fetch(`${served!.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };

  beforeAll(async () => {
    db = await createTestDatabase('metrics');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    raw = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
    metrics = createMetrics({ service: 'test' });
    store = instrumentEventStore(raw, metrics);
    watchLag(metrics, db.pool);
    served = await serveMetrics(metrics, {
      listener: { port: await freePort(), host: '127.0.0.1', defaulted: false },
      health: () => checkHealth(db.pool, { databaseMode: 'external' }),
    });
  });
  afterAll(async () => {
    await served?.close();
    await metrics.close();
    await raw.close();
    await db.drop();
  });

  it('when events are appended with the projection stopped, then its lag in events and seconds rises, and falls to 0 once it runs', async () => {
    const run = () => new ProjectionRunner(db.pool, store, new InProcessChangeFeed(), counter);
    const first = run();
    await first.start();
    await store.append('count-1', [ev('Counted')], 'any');
    await first.caughtUp();
    let text = await scrape();
    expect(sample(text, 'tvshop_consumer_lag_events', 'name="counter"')).toBe(0);
    expect(sample(text, 'tvshop_consumer_lag_seconds', 'name="counter"')).toBe(0);
    await first.stop();

    await store.append('count-1', [ev('Counted'), ev('Counted'), ev('Counted')], 'any');
    await store.append('count-2', [ev('Counted'), ev('Counted')], 'any');
    await new Promise((r) => setTimeout(r, 1100));
    text = await scrape();
    const head = await raw.headPosition();
    expect(sample(text, 'tvshop_log_head_position')).toBe(head);
    expect(sample(text, 'tvshop_consumer_lag_events', 'name="counter"')).toBe(5);
    expect(sample(text, 'tvshop_consumer_lag_seconds', 'name="counter"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'tvshop_consumer_position', 'kind="projection"')).toBe(head - 5);
    expect(sample(text, 'tvshop_lag_read_ok')).toBe(1);
    // readLag, which the admin overview reuses, tells the same.
    expect((await readLag(db.pool)).lag).toContainEqual(
      expect.objectContaining({ name: 'counter', kind: 'projection', position: head - 5, events: 5 }),
    );

    const second = run();
    await second.start();
    await second.caughtUp();
    text = await scrape();
    expect(sample(text, 'tvshop_consumer_lag_events', 'name="counter"')).toBe(0);
    expect(sample(text, 'tvshop_consumer_lag_seconds', 'name="counter"')).toBe(0);
    await second.stop();
  });

  it("when a policy's checkpoint is behind, then it is labelled a policy by its own name", async () => {
    await setCheckpoint(db.pool, policyCheckpoint('ghost'), 1);
    const text = await scrape();
    const head = await raw.headPosition();
    expect(sample(text, 'tvshop_consumer_lag_events', 'name="ghost"')).toBe(head - 1);
    expect(text).toMatch(/^tvshop_consumer_lag_events\{name="ghost",kind="policy",service="test"\} \d+$/m);
    await db.pool.query(`delete from public.projection_checkpoints where name = $1`, [policyCheckpoint('ghost')]);
  });

  it('when appends succeed or lose a race, then the append histogram counts each by outcome', async () => {
    const before = sample(await scrape(), 'tvshop_event_append_duration_seconds_count', 'outcome="ok"') ?? 0;
    await store.append('race-1', [ev()], 'no_stream');
    await expect(store.append('race-1', [ev()], 'no_stream')).rejects.toThrow();
    const text = await scrape();
    expect(sample(text, 'tvshop_event_append_duration_seconds_count', 'outcome="ok"')).toBe(before + 1);
    expect(sample(text, 'tvshop_event_append_duration_seconds_count', 'outcome="conflict"')).toBe(1);
    expect(text).toMatch(/^tvshop_event_append_duration_seconds_bucket\{le="0.005",service="test",outcome="ok"\} \d+$/m);
  });

  it("when scraped, then Node's own figures (event-loop delay, memory) are there too", async () => {
    const text = await scrape();
    expect(text).toMatch(/^tvshop_nodejs_eventloop_lag_p99_seconds\{service="test"\} [\d.e-]+$/m);
    expect(text).toMatch(/^tvshop_process_resident_memory_bytes\{service="test"\} \d+$/m);
  });

  it('when /health is asked on the internal listener, then it answers the detail; anything else is 404', async () => {
    const res = await fetch(`${served!.url}/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as HealthReport;
    expect(body).toMatchObject({ status: 'ok', database: { ok: true, mode: 'external' }, head: await raw.headPosition() });
    expect(body.projections).toContainEqual({ name: 'counter', position: expect.any(Number), lag: expect.any(Number) });
    expect((await fetch(`${served!.url}/`)).status).toBe(404);
    expect((await fetch(`${served!.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('when the database does not answer in time, then the scrape still answers, with the lag gauges empty and lag_read_ok 0', async () => {
    const hung = createMetrics({ service: 'hung', defaults: false });
    watchLag(hung, { query: () => new Promise(() => {}) } as never, { timeoutMs: 50 });
    const t0 = Date.now();
    const text = await hung.registry.metrics();
    // It gave up on the database (50 ms) rather than hanging: far from the test's own timeout.
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(sample(text, 'tvshop_lag_read_ok')).toBe(0);
    expect(text).not.toMatch(/^tvshop_consumer_lag_events\{/m);
    const health = await checkHealth({ query: () => new Promise(() => {}) } as never, { databaseMode: 'embedded', timeoutMs: 50 });
    expect(health).toMatchObject({ status: 'degraded', summary: 'database unreachable', database: { ok: false } });
  });
});

describe('metrics settings and the token', () => {
  it('when METRICS_PORT is unset, 0 or bad, then the default, off, or a start that names it', () => {
    expect(metricsListenerFromEnv({}, 9464)).toEqual({ port: 9464, host: '127.0.0.1', defaulted: true });
    expect(metricsListenerFromEnv({ METRICS_PORT: '0' }, 9464)).toMatchObject({ port: 0, defaulted: false });
    expect(metricsListenerFromEnv({ METRICS_PORT: '9999', METRICS_HOST: '0.0.0.0' }, 0)).toEqual({
      port: 9999,
      host: '0.0.0.0',
      defaulted: false,
    });
    expect(() => metricsListenerFromEnv({ METRICS_PORT: 'lots' }, 0)).toThrow(/METRICS_PORT/);
  });

  it('when the port is taken, then a default one is given up with a warning and an explicit one stops the start', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const metrics = createMetrics({ service: 'taken', defaults: false });
      const warnings: string[] = [];
      const log = { warn: (m: string) => warnings.push(m) } as never;
      expect(await serveMetrics(metrics, { listener: { port, host: '127.0.0.1', defaulted: true }, log })).toBeNull();
      expect(warnings.join()).toMatch(/port \d+ is taken/);
      await expect(serveMetrics(metrics, { listener: { port, host: '127.0.0.1', defaulted: false } })).rejects.toThrow(/METRICS_PORT/);
      expect(await serveMetrics(metrics, { listener: { port: 0, host: '127.0.0.1', defaulted: false } })).toBeNull();
    } finally {
      holder.close();
    }
  });

  it('when a bearer token is compared, then only the exact token passes', () => {
    const token = 'a-metrics-token-of-some-length';
    expect(bearerTokenMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerTokenMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerTokenMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerTokenMatches('Bearer short', token)).toBe(false);
    expect(bearerTokenMatches(token, token)).toBe(false);
    expect(bearerTokenMatches(undefined, token)).toBe(false);
    expect(bearerTokenMatches('Bearer ', token)).toBe(false);
  });
});
