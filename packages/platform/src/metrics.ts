import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Admin, Kafka } from 'kafkajs';
import type pg from 'pg';
import { Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { z } from 'zod';
import { ConcurrencyError, describeError } from './errors';
import type { EventStore, LogSource, SubscribeOptions, Subscription } from './event-store/types';
import { createKafka } from './kafka/client';
import type { Logger } from './log';
import { checkpointHealth } from './projections/checkpoints';
import type { ServiceDeps } from './service-host';
import { createLogger } from './log';
import { topologyFromEnv, type Service, type Topology } from './topology';

/**
 * Prometheus figures for whoever runs TV Shop (ADR 0037). Each process makes one registry
 * (`createMetrics`) and hands it to what it hosts; the figures that cost a query (lag, Kafka
 * offsets) are read when Prometheus scrapes, bounded by a timeout, so an idle process pays nothing.
 */

/** The internal listener's port when the environment names none (`npm start`; 0 turns it off). */
export const DEFAULT_METRICS_PORTS = { shop: 9464, identity: 9465, catalog: 9466, orders: 9467, projector: 9468 } as const;

/** A collect callback gives up on the database or Kafka after this long; a scrape must not hang. */
export const COLLECT_TIMEOUT_MS = 2500;

/** A projection or policy behind the head whose checkpoint has not moved for this long is stalled. */
export const STALL_MS = 5000;

export interface Metrics {
  readonly registry: Registry;
  /** Runs `fn` when the process stops (closes what collecting holds open, such as a Kafka admin client). */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

/**
 * One registry for one process, labelled with what it is (`shop`, `gateway`, `catalog`, ...),
 * with Node's own figures (event-loop delay, heap, GC, handles) unless `defaults` is false.
 */
export function createMetrics(opts: { service: string; defaults?: boolean }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: opts.service });
  if (opts.defaults !== false) collectDefaultMetrics({ register: registry, prefix: 'tvshop_' });
  const closers: (() => Promise<void> | void)[] = [];
  return {
    registry,
    onClose: (fn) => void closers.push(fn),
    async close() {
      for (const fn of closers.splice(0).reverse()) await Promise.resolve(fn()).catch(() => {});
    },
  };
}

/** The registry's metric of that name, made once: a host may instrument two stores of one registry. */
function once<T extends Metric>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/** Seconds buckets for work that usually takes milliseconds but can wait on a lock or a network. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Request latency per route, for the gateway. `route` must be a pattern (`/api/products/:id`),
 * never a raw URL: every id would otherwise become a series of its own.
 */
export function httpRequestHistogram(metrics: Metrics): Histogram<'method' | 'route' | 'status_class'> {
  return once(
    metrics.registry,
    'tvshop_http_request_duration_seconds',
    () =>
      new Histogram({
        name: 'tvshop_http_request_duration_seconds',
        help: 'HTTP request latency by method, matched route pattern and status class',
        labelNames: ['method', 'route', 'status_class'] as const,
        buckets: LATENCY_BUCKETS,
        registers: [metrics.registry],
      }),
  );
}

/** A gauge whose value is read on each scrape (open sockets, a queue's length). */
export function gaugeOnScrape(metrics: Metrics, name: string, help: string, read: () => number): Gauge {
  return once(
    metrics.registry,
    name,
    () =>
      new Gauge({
        name,
        help,
        registers: [metrics.registry],
        collect() {
          this.set(read());
        },
      }),
  );
}

/**
 * The store with each `append` timed (outcome `ok`, `conflict` for a lost optimistic race, or
 * `error`); everything else goes straight to the store it wraps.
 */
export function instrumentEventStore(store: EventStore, metrics: Metrics): EventStore {
  const appends = once(
    metrics.registry,
    'tvshop_event_append_duration_seconds',
    () =>
      new Histogram({
        name: 'tvshop_event_append_duration_seconds',
        help: 'Time to append events to a stream of the log, by outcome',
        labelNames: ['outcome'] as const,
        buckets: LATENCY_BUCKETS,
        registers: [metrics.registry],
      }),
  );
  return {
    async append(streamId, events, expected) {
      const end = appends.startTimer();
      try {
        const result = await store.append(streamId, events, expected);
        end({ outcome: 'ok' });
        return result;
      } catch (err) {
        end({ outcome: err instanceof ConcurrencyError ? 'conflict' : 'error' });
        throw err;
      }
    },
    readStream: (streamId, opts) => store.readStream(streamId, opts),
    readAll: (from, limit) => store.readAll(from, limit),
    findEvent: (eventId) => store.findEvent(eventId),
    readStreamAndEvent: (streamId, eventId) => store.readStreamAndEvent(streamId, eventId),
    headPosition: () => store.headPosition(),
    subscribe: (opts) => store.subscribe(opts),
    close: () => store.close(),
  };
}

/** One projection's or policy's distance behind the head (the same shape as contracts' `ProjectionLag`). */
export interface ConsumerLag {
  name: string;
  kind: 'projection' | 'policy';
  position: number;
  /** Events behind the head. */
  events: number;
  /** Seconds since the oldest event it has not applied was stored (0 when caught up). */
  seconds: number;
}

/** Raw rows plus the lag they make, for callers that also judge stalls (the health check). */
async function readLagRows(pool: Pick<pg.Pool, 'query'>) {
  const rows = await checkpointHealth(pool);
  const head = Number(rows[0]?.head ?? 0);
  const lag: ConsumerLag[] = [];
  for (const row of rows) {
    if (row.kind === null || row.name === null) continue;
    const position = Number(row.position);
    lag.push({
      name: row.name,
      kind: row.kind,
      position,
      events: Math.max(0, head - position),
      seconds: position < head ? Math.max(0, (row.waiting_ms ?? 0) / 1000) : 0,
    });
  }
  return { head, lag, rows };
}

/** The head of the log and every projection's and policy's lag behind it, in one round trip. */
export async function readLag(pool: Pick<pg.Pool, 'query'>): Promise<{ head: number; lag: ConsumerLag[] }> {
  const { head, lag } = await readLagRows(pool);
  return { head, lag };
}

/**
 * Gauges of the log's head and of each projection's and policy's lag (events and seconds), read
 * from the checkpoints on scrape. The figures come from the database, so every process shows the
 * same whoever runs the projections. A read that fails or times out leaves the lag gauges empty
 * and `tvshop_lag_read_ok` at 0, rather than failing the whole scrape.
 */
export function watchLag(metrics: Metrics, pool: Pick<pg.Pool, 'query'>, opts: { timeoutMs?: number; log?: Logger } = {}): void {
  const registry = metrics.registry;
  if (registry.getSingleMetric('tvshop_lag_read_ok')) return;
  // A scrape collects every gauge at once: they share the read in flight, and the next scrape reads afresh.
  const read = sharedWhileInFlight(() =>
    withTimeout(readLag(pool), opts.timeoutMs ?? COLLECT_TIMEOUT_MS, 'reading the checkpoints').catch((err: unknown) => {
      opts.log?.warn('metrics: could not read the lag', { error: describeError(err) });
      return null;
    }),
  );
  const labelNames = ['name', 'kind'] as const;
  new Gauge({
    name: 'tvshop_lag_read_ok',
    help: '1 when the last scrape could read the checkpoints, 0 when the database did not answer in time',
    registers: [registry],
    async collect() {
      this.set((await read()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'tvshop_log_head_position',
    help: 'Global position of the last event in the log',
    registers: [registry],
    async collect() {
      const r = await read();
      if (r) this.set(r.head);
      else this.reset();
    },
  });
  const perConsumer = (name: string, help: string, value: (l: ConsumerLag) => number) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const r = await read();
        // Reset first: a projection that was renamed or dropped must not linger at its last value.
        this.reset();
        for (const l of r?.lag ?? []) this.set({ name: l.name, kind: l.kind }, value(l));
      },
    });
  perConsumer('tvshop_consumer_position', 'Log position each projection and policy has applied up to', (l) => l.position);
  perConsumer('tvshop_consumer_lag_events', 'Events each projection and policy is behind the head of the log', (l) => l.events);
  perConsumer(
    'tvshop_consumer_lag_seconds',
    'Age of the oldest event each projection and policy has not applied yet (0 when caught up)',
    (l) => l.seconds,
  );
}

/** What the detailed health check says (the admin's `GET /api/health` and the internal `/health`). */
export interface HealthReport {
  status: 'ok' | 'degraded';
  /** What is wrong, with positions and times (for operators and the admin); never an address. */
  reason?: string;
  /** The same in a few words for anyone (`database unreachable`, `policy catalog stalled`): no positions. */
  summary?: string;
  database: { ok: boolean; mode: 'embedded' | 'external' };
  head: number;
  /** Read-model projections' positions (the policies' are in `lag`). */
  projections: { name: string; position: number; lag: number }[];
  lag: ConsumerLag[];
}

/**
 * The state of the whole from the database: degraded while it cannot be reached, or while a
 * projection or policy is behind the head and its checkpoint has not moved for `STALL_MS`.
 */
export async function checkHealth(
  pool: Pick<pg.Pool, 'query'>,
  opts: { databaseMode: 'embedded' | 'external'; timeoutMs?: number; log?: Logger },
): Promise<HealthReport> {
  const reasons: string[] = [];
  const stalled: string[] = [];
  try {
    const { head, lag, rows } = await withTimeout(readLagRows(pool), opts.timeoutMs ?? COLLECT_TIMEOUT_MS, 'the database');
    for (const row of rows) {
      if (row.kind === null || row.name === null) continue;
      const position = Number(row.position);
      if (position < head && (row.waiting_ms ?? 0) > STALL_MS && row.idle_ms > STALL_MS) {
        stalled.push(`${row.kind} ${row.name}`);
        reasons.push(
          `${row.kind} ${row.name} stalled at ${position} of ${head} for ${Math.round(Math.min(row.waiting_ms ?? 0, row.idle_ms) / 1000)} s`,
        );
      }
    }
    const summary = stalled.length > 3 ? `${stalled.length} projections and policies stalled` : `${stalled.join(', ')} stalled`;
    return {
      status: reasons.length === 0 ? 'ok' : 'degraded',
      ...(reasons.length === 0 ? {} : { reason: reasons.join('; '), summary }),
      database: { ok: true, mode: opts.databaseMode },
      head,
      projections: lag.filter((l) => l.kind === 'projection').map((l) => ({ name: l.name, position: l.position, lag: l.events })),
      lag,
    };
  } catch (err) {
    // The cause (an address, a code) goes to the log, not to whoever asks.
    opts.log?.warn('health: the database did not answer', { error: describeError(err) });
    return {
      status: 'degraded',
      reason: 'database unreachable',
      summary: 'database unreachable',
      database: { ok: false, mode: opts.databaseMode },
      head: 0,
      projections: [],
      lag: [],
    };
  }
}

/**
 * The report with this process's own command transport in it: degraded, saying so, once kafkajs
 * gave up on one of its Kafka consumers (of commands, or of the replies to the commands it sends),
 * which the database cannot tell. `transport` absent or ok: the report as it is.
 */
export function withTransportHealth(
  report: HealthReport,
  transport?: { status: 'ok' } | { status: 'degraded'; reason: string },
): HealthReport {
  if (!transport || transport.status === 'ok') return report;
  const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join('; ');
  return { ...report, status: 'degraded', reason: join(report.reason, transport.reason), summary: join(report.summary, transport.reason) };
}

/**
 * With EVENT_BUS=kafka, the Kafka side of each consumer this process runs through `source`: the
 * log topic's high-water mark less its group's committed offset, beside the log position it has
 * delivered. The distance is in offsets, not events: the relay writes each batch in a Kafka
 * transaction, whose commit marker takes an offset that no consumer commits past, so a consumer
 * that has read everything still shows the marker after its last message (1). The exact figure
 * in events is `tvshop_consumer_lag_events`, from the checkpoints. The broker is asked on scrape
 * through one admin client, opened at the first scrape and closed with the metrics.
 */
export function instrumentLogSource(
  source: LogSource | undefined,
  metrics: Metrics,
  topology: Pick<Topology, 'events' | 'kafkaBrokers' | 'kafkaTopicPrefix'>,
  opts: { clientId: string; timeoutMs?: number; log?: Logger; kafka?: Kafka },
): LogSource | undefined {
  if (!source || topology.events !== 'kafka') return source;
  // Mirrors the adapters' KafkaLogSource: its topic and its groups (`<prefix>.<subscription name>`).
  const topic = `${topology.kafkaTopicPrefix}.log`;
  const groupOf = (name: string) => `${topology.kafkaTopicPrefix}.${name}`;
  const live = new Map<string, Subscription>();
  // Every group this process has read with, stopped or not: a stopped consumer's lag still grows.
  const groups = new Set<string>();
  let admin: Promise<Admin> | null = null;
  const connect = () => {
    if (!admin) {
      const kafka = opts.kafka ?? createKafka({ brokers: topology.kafkaBrokers, clientId: `${opts.clientId}-metrics` });
      const a = kafka.admin();
      admin = a.connect().then(() => a);
      // A failed connection is tried again at the next scrape.
      admin.catch(() => (admin = null));
    }
    return admin;
  };
  metrics.onClose(async () => {
    const a = admin;
    admin = null;
    await (await a?.catch(() => null))?.disconnect();
  });
  const timeoutMs = opts.timeoutMs ?? COLLECT_TIMEOUT_MS;
  const readOffsets = async () => {
    const a = await connect();
    const [high, ...committed] = await Promise.all([
      a.fetchTopicOffsets(topic),
      ...[...groups].map((name) => a.fetchOffsets({ groupId: groupOf(name), topics: [topic] })),
    ]);
    const highWater = high.reduce((sum, p) => sum + Number(p.high), 0);
    const lag = [...groups].map((name, i) => {
      const partitions = committed[i]?.[0]?.partitions ?? [];
      // A group that never committed (-1) has everything from the topic's start still to read.
      const done = partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
      return { name, offsets: Math.max(0, highWater - done) };
    });
    return { highWater, lag };
  };
  const read = sharedWhileInFlight(() =>
    withTimeout(readOffsets(), timeoutMs, 'Kafka').catch((err: unknown) => {
      opts.log?.warn('metrics: could not read the Kafka offsets', { error: describeError(err) });
      return null;
    }),
  );
  const registry = metrics.registry;
  if (!registry.getSingleMetric('tvshop_kafka_consumer_lag_offsets')) {
    new Gauge({
      name: 'tvshop_kafka_log_high_watermark',
      help: "The log topic's high-water mark (the offset its next message will get)",
      registers: [registry],
      async collect() {
        const r = await read();
        if (r) this.set(r.highWater);
        else this.reset();
      },
    });
    new Gauge({
      name: 'tvshop_kafka_consumer_lag_offsets',
      help: "Offsets of the log topic each of this process's consumer groups has not committed, transaction markers included (1 when caught up)",
      labelNames: ['consumer'] as const,
      registers: [registry],
      async collect() {
        const r = await read();
        this.reset();
        for (const l of r?.lag ?? []) this.set({ consumer: l.name }, l.offsets);
      },
    });
    new Gauge({
      name: 'tvshop_kafka_consumer_delivered_position',
      help: 'Log position each consumer of this process has been delivered up to from Kafka',
      labelNames: ['consumer'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [name, s] of live) this.set({ consumer: name }, s.position);
      },
    });
  }
  return {
    headPosition: () => source.headPosition(),
    subscribe(subscribeOpts: SubscribeOptions): Subscription {
      const subscription = source.subscribe(subscribeOpts);
      const name = subscribeOpts.name ?? 'unnamed';
      live.set(name, subscription);
      groups.add(name);
      return {
        caughtUp: () => subscription.caughtUp(),
        get position() {
          return subscription.position;
        },
        async stop() {
          if (live.get(name) === subscription) live.delete(name);
          await subscription.stop();
        },
      };
    },
  };
}

/** METRICS_PORT and METRICS_HOST: where a process serves /metrics and the detailed /health. */
const MetricsEnv = z.object({
  METRICS_PORT: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(0).max(65535).optional(),
  ),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
});

export interface MetricsListenerConfig {
  /** 0: no internal listener. */
  port: number;
  host: string;
  /** True when the port is the default rather than METRICS_PORT: a port taken is then only a warning. */
  defaulted: boolean;
}

/** Reads METRICS_PORT (unset: `defaultPort`; 0: off) and METRICS_HOST (127.0.0.1); a bad value stops the start naming it. */
export function metricsListenerFromEnv(env: NodeJS.ProcessEnv, defaultPort: number): MetricsListenerConfig {
  const parsed = MetricsEnv.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid environment variable ${issue.path.join('.')}: ${issue.message}`);
  }
  const { METRICS_PORT, METRICS_HOST } = parsed.data;
  return { port: METRICS_PORT ?? defaultPort, host: METRICS_HOST, defaulted: METRICS_PORT === undefined };
}

/**
 * The internal listener: `GET /metrics` (Prometheus' text format) and `GET /health` (the detailed
 * report; 503 when degraded). Nothing else, and no authentication: it is meant to be bound to
 * loopback or a private network that only the scraper reaches. Null when the port is 0, or when
 * a default port is taken (another process on the machine has it; said in the log).
 */
export async function serveMetrics(
  metrics: Metrics,
  opts: { listener: MetricsListenerConfig; health?: () => Promise<HealthReport>; log?: Logger },
): Promise<{ url: string; close(): Promise<void> } | null> {
  const { port, host, defaulted } = opts.listener;
  if (port === 0) return null;
  const server = http.createServer((req, res) => {
    const answer = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(body);
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, 'text/plain', 'method not allowed\n', { allow: 'GET, HEAD' });
    if (path === '/metrics')
      return void metrics.registry.metrics().then(
        (text) => answer(200, metrics.registry.contentType, text),
        (err: unknown) => answer(503, 'text/plain', `collecting failed: ${describeError(err)}\n`),
      );
    if (path === '/health' && opts.health)
      return void opts.health().then(
        (report) =>
          answer(
            report.status === 'ok' ? 200 : 503,
            'application/json',
            JSON.stringify(report),
            report.status === 'ok' ? {} : { 'retry-after': '2' },
          ),
        (err: unknown) => answer(503, 'text/plain', `health failed: ${describeError(err)}\n`),
      );
    answer(404, 'text/plain', 'not found: try /metrics or /health\n');
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    if (defaulted && (err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      opts.log?.warn(`metrics: port ${port} is taken, so this process serves no /metrics (set METRICS_PORT to another, or 0)`);
      return null;
    }
    throw new Error(`metrics: cannot listen on ${host}:${port} (METRICS_PORT, METRICS_HOST): ${describeError(err)}`);
  }
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/**
 * A domain service's `start` (as `runServiceMain` takes it) with its metrics: its appends timed,
 * its policies' Kafka lag, the lag gauges, and the internal listener (METRICS_PORT, unset: the
 * service's own default port). Settings are read at once, so a bad METRICS_PORT stops the start.
 */
export function withServiceMetrics(
  name: Service,
  start: (deps: ServiceDeps) => Promise<{ stop(): Promise<void> }>,
  env: NodeJS.ProcessEnv = process.env,
): (deps: ServiceDeps) => Promise<{ stop(): Promise<void> }> {
  const listener = metricsListenerFromEnv(env, DEFAULT_METRICS_PORTS[name]);
  return async (deps) => {
    const log = createLogger(name);
    const metrics = createMetrics({ service: name });
    const store = instrumentEventStore(deps.store, metrics);
    const events = instrumentLogSource(deps.events, metrics, topologyFromEnv(name, env), { clientId: `tvshop-${name}`, log });
    watchLag(metrics, deps.pool, { log });
    const server = await serveMetrics(metrics, {
      listener,
      log,
      // A service runs only beside a PostgreSQL of its own (DATABASE_URL), never an embedded one.
      health: () => checkHealth(deps.pool, { databaseMode: 'external', log }),
    });
    if (server) log.info(`${name} serves /metrics and /health at ${server.url}`);
    try {
      const service = await start({ ...deps, store, events });
      return {
        async stop() {
          await service.stop();
          await server?.close();
          await metrics.close();
        },
      };
    } catch (err) {
      await server?.close();
      await metrics.close();
      throw err;
    }
  };
}

/**
 * True when an `Authorization` header carries `Bearer <token>`. Both sides are hashed first, so
 * the comparison takes the same time whatever the length or the first wrong character.
 */
export function bearerTokenMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/** `read`, called again while its last call is still pending, answers that same pending call. */
function sharedWhileInFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    if (pending) return pending;
    const p = read().finally(() => {
      if (pending === p) pending = null;
    });
    pending = p;
    return p;
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from ${what} within ${ms} ms`)), ms);
  });
  p.catch(() => {}); // answered late, after the timeout: nobody is waiting any more
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
