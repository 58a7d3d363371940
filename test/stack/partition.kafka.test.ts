import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { canPartition, createNamespace, portOf, removeStaleNamespaces, type Namespace } from './support/netns';

/** What the test uses of scripts/stack.mjs and scripts/kafka.mjs (plain JavaScript, so typed here). */
interface Stack {
  urls: string[];
  stop(): Promise<void>;
}
type StartStack = (opts: Record<string, unknown>) => Promise<Stack>;
type EnsureKafka = (opts: { port?: number; fresh?: boolean }) => Promise<{ brokers: string[]; stop(): Promise<unknown> }>;

const scripts = path.resolve(import.meta.dirname, '../../scripts');
const load = path.resolve(import.meta.dirname, 'support/load.mjs');
/** Gateways on PORT (this machine) and PORT+1 (the namespace); services on ports of their own, apart from the other stack test's. */
const PORT = 3400;
/** A broker of this test's own (unless KAFKA_BROKERS names one): the stack's topics and groups have fixed names. */
const KAFKA_PORT = 19192;
const CUT_MS = 10_000;
/**
 * TCP's own recovery after a silent cut: a segment in flight when the link went is retransmitted
 * at ~0.23, 0.7, 1.6, 3.5, 7.1 and 14.5 s (the retransmission timeout doubles from ~230 ms), so
 * after a 10 s cut an established connection (a pooled PostgreSQL client, a Kafka producer's)
 * speaks again ~4.5 s after the heal, whatever the application does. Measured: writes stuck
 * through the cut are answered 4.6-4.8 s after the heal and the consumers catch up 50-100 ms later.
 */
const TCP_RECOVERY_MS = 5_000;
/**
 * Longest acceptable answer from the cut-off gateway. Those that need a new database connection
 * get 503 after its 5 s connect timeout; those already past that point (a pooled connection's
 * query, the Kafka produce) wait as long as the cut lasts plus TCP's recovery (issue 12: they have
 * no shorter bound of their own), so the bound is the cut plus that recovery plus 2 s of slack.
 */
const ANSWER_BOUND_MS = CUT_MS + TCP_RECOVERY_MS + 2_000;
/**
 * The consumers must have caught up with the log this long after the heal. Usually ~5 s (the
 * measured figure above), but TCP's own worst case is later: a connection whose first segment was
 * lost just before 2.9 s into the cut retransmits at 0.23 ... 7.1 s (all in the cut), then at
 * 14.5 s, ~7.4 s after the heal; no application can speak on it sooner. That plus 2 s of slack for
 * a loaded machine. (The printed figure says how soon it was.)
 */
const CATCH_UP_BOUND_MS = 2_900 + 14_500 - CUT_MS + 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  name: string;
  t0: number;
  ms: number;
  status: number;
  id: string | null;
  contentType?: string | null;
  error?: string;
}

/** A running load.mjs: its answers as they come, and `stop()` that resolves once the writes in flight are answered. */
function collect(child: ChildProcess, what: string) {
  const answers: Answer[] = [];
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.trim()) answers.push(JSON.parse(line) as Answer);
  });
  const exited = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${what} exited with ${code}: ${err.trim()}`)))),
  );
  return {
    answers,
    stop: async () => {
      child.stdin?.write('stop\n');
      await exited;
    },
  };
}

/** One JSON line from a load.mjs run to its end. */
async function oneLine<T>(child: ChildProcess): Promise<T> {
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((r) => child.once('exit', r));
  return JSON.parse(out.trim()) as T;
}

/**
 * Readies a new broker before the stack starts: its internal topics (group offsets, transaction
 * state) and catalog's command topic exist and have leaders. Six processes otherwise race to
 * create them on a broker seconds old, and one may fail to start ("This server does not host this
 * topic-partition") or a first command fail: a fresh-broker artefact, not what this test is about.
 */
async function warmUp(brokers: string[]): Promise<void> {
  const kafka = new Kafka({ clientId: 'tvshop-partition-warm-up', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const consumer = kafka.consumer({ groupId: 'tvshop-partition-warm-up' });
  const producer = kafka.producer({ transactionalId: 'tvshop-partition-warm-up', maxInFlightRequests: 1, idempotent: true });
  try {
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: ['identity', 'catalog', 'orders'].map((s) => ({
        topic: `tvshop.commands.${s}`,
        numPartitions: 3,
        configEntries: [{ name: 'retention.ms', value: String(24 * 3600_000) }],
      })),
    });
    await consumer.connect();
    await consumer.subscribe({ topics: ['tvshop.commands.catalog'] });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.run({ eachMessage: async () => {} });
    await joined;
    await producer.connect();
  } finally {
    await consumer.disconnect().catch(() => {});
    await producer.disconnect().catch(() => {});
    await admin.deleteGroups(['tvshop-partition-warm-up']).catch(() => {});
    await admin.disconnect().catch(() => {});
  }
}

/**
 * A real network partition (issue 12, item 5). One gateway (gateway-b) and one consumer host (a
 * second catalog process, `catalog-b`, in the consumer group of catalog's command topic with the
 * catalog process on this machine) run in a network namespace of their own, joined to this machine
 * by a veth pair; the rest of the stack (identity, catalog, orders, the projector host, gateway-a,
 * the broker, PostgreSQL, Redis) stays here. Under a write load through both gateways (the
 * namespace's from inside it), the link is cut silently for 10 s and healed:
 *
 * - the cut-off gateway answers 201 once the link is back, or 503 problem+json, never a 500, never
 *   nothing, within ANSWER_BOUND_MS (a signed-in write needs no new database connection since the
 *   gateway keeps accounts between requests, so its writes usually wait out the cut and are
 *   acknowledged after the heal; a write that needs a connection opened during the cut gets 503);
 * - gateway-a keeps taking writes: catalog's partitions held by the cut-off catalog-b move to the
 *   catalog process here once the broker misses catalog-b's heartbeats (session timeout 10 s);
 * - every acknowledged write is in the log once, nothing is in it twice, and both gateways list
 *   every acknowledged write;
 * - soon after the heal (measured 4.3-4.9 s, see TCP_RECOVERY_MS; bounded by CATCH_UP_BOUND_MS) the consumers are
 *   caught up: the relay and every projection are at the log's head and catalog's consumer group
 *   has taken every command.
 *
 * The figures are printed (`partition: {...}`): 503s, slowest answers, time to catch up.
 */
describe.skipIf(!canPartition())('the stack across a real network partition', () => {
  let db: TestDatabase;
  let dataDir: string;
  let stack: Stack | undefined;
  let ns: Namespace | undefined;
  let stopKafka: (() => Promise<unknown>) | undefined;
  let brokers: string[];
  const loads: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    removeStaleNamespaces();
    db = await createTestDatabase('partition');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-partition-'));
    if (process.env.KAFKA_BROKERS) {
      brokers = inject('kafkaBrokers').split(',');
    } else {
      const { ensureKafka } = (await import(pathToFileURL(path.join(scripts, 'kafka.mjs')).href)) as { ensureKafka: EnsureKafka };
      const kafka = await ensureKafka({ port: KAFKA_PORT, fresh: true });
      brokers = kafka.brokers;
      stopKafka = () => kafka.stop();
    }
    await warmUp(brokers);
    const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    // The namespace reaches PostgreSQL, Redis and Kafka at the same 127.0.0.1 addresses as everyone.
    ns = await createNamespace([portOf(db.url, 5432), portOf(redisUrl, 6379), ...brokers.map((b) => portOf(`tcp://${b}`, 9092))]);
    const { startStack } = (await import(pathToFileURL(path.join(scripts, 'stack.mjs')).href)) as { startStack: StartStack };
    stack = await startStack({
      port: PORT,
      quiet: !process.env.STACK_LOGS,
      databaseUrl: db.url,
      kafkaBrokers: brokers.join(','),
      env: {
        DATA_DIR: dataDir,
        REDIS_URL: redisUrl,
        ADMIN_PASSWORD: 'partition-admin-password',
        JWT_SECRET: randomUUID(),
        REDIS_CHANNEL: `tvshop:partition:${randomUUID()}`,
        // PARTITION_LOG_LEVEL=debug (with STACK_LOGS=1) shows kafkajs's group assignments, to see who held what.
        LOG_LEVEL: process.env.PARTITION_LOG_LEVEL ?? 'warn',
        // The write load is one seller listing without pause: the listing limits are off (ADR 0035).
        LISTING_LIMIT_ACTIVE: '0',
        LISTING_LIMIT_PER_HOUR: '0',
      },
      processes: {
        identity: { port: 4401 },
        catalog: { port: 4402 },
        orders: { port: 4403 },
        // In the namespace: listening on 0.0.0.0 there, so that this machine sees them come up.
        'catalog-b': {
          like: 'catalog',
          wrap: ns.wrap,
          port: 4402,
          env: { HOST: '0.0.0.0' },
          healthUrl: `http://${ns.address}:4402/health`,
        },
        'gateway-b': { wrap: ns.wrap, healthUrl: `http://${ns.address}:${PORT + 1}/api/ready` },
      },
    });
  });

  afterAll(async () => {
    // Healed first, so that the namespace's processes stop in order (leaving their groups).
    ns?.heal();
    await Promise.allSettled(loads.map((l) => l.stop()));
    await stack?.stop().catch(() => {});
    await ns?.destroy();
    await stopKafka?.().catch(() => {});
    await db?.drop().catch(() => {});
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'the cut-off side answers 503 within the bound, nothing acknowledged is lost or doubled, and the consumers catch up once TCP speaks again after the heal',
    { timeout: 120_000 },
    async () => {
      const namespace = ns!;
      const [a] = stack!.urls as [string];
      const inside = `http://127.0.0.1:${PORT + 1}`;
      const signup = await fetch(`${a}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Cut Seller',
          email: `cut.${randomUUID().slice(0, 8)}@example.com`,
          password: 'secret-pass',
          role: 'Seller',
        }),
      });
      expect(signup.status).toBe(201);
      const { token } = (await signup.json()) as { token: string };

      // Four writes a second through each gateway; the namespace's load runs inside it.
      const here = collect(
        spawn(process.execPath, [load, 'write', a, token, 'Here TV', '250'], { stdio: ['pipe', 'pipe', 'pipe'] }),
        'the load here',
      );
      const there = collect(namespace.node([load, 'write', inside, token, 'Cut TV', '250']), 'the load in the namespace');
      loads.push(here, there);

      await sleep(4000);
      const cutAt = Date.now();
      namespace.cut();
      await sleep(CUT_MS);
      namespace.heal();
      const healAt = Date.now();
      await Promise.all([here.stop(), there.stop()]);
      const answeredAt = Date.now();

      // Caught up: the relay and every projection at the head, catalog's group with nothing left to take.
      const admin = new Kafka({ clientId: 'tvshop-partition-test', brokers, logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      let lagError: unknown = null;
      let behindAtLast = '';
      const commandLag = async () => {
        const topic = 'tvshop.commands.catalog';
        const [ends, [committed]] = await Promise.all([
          admin.fetchTopicOffsets(topic),
          admin.fetchOffsets({ groupId: 'tvshop.catalog', topics: [topic] }),
        ]);
        return ends.reduce((sum, end) => {
          const at = Number(committed!.partitions.find((p) => p.partition === end.partition)?.offset ?? -1);
          return sum + Number(end.high) - (at < 0 ? Number(end.low) : at);
        }, 0);
      };
      const caughtUp = async () => {
        const { rows } = await db.pool.query<{ head: string; behind: string }>(
          `select (select coalesce(max(position), 0) from es.events) as head,
                  (select count(*) from (select position from public.projection_checkpoints
                                         union all select position from public.kafka_relay) c
                    where c.position < (select coalesce(max(position), 0) from es.events)) as behind`,
        );
        if (Number(rows[0]!.behind) !== 0) {
          // Which ones, for the report when they never catch up.
          const late = await db.pool.query<{ name: string; position: string }>(
            `select name, position from public.projection_checkpoints where position < $1
             union all select 'kafka_relay', position from public.kafka_relay where position < $1`,
            [rows[0]!.head],
          );
          behindAtLast = `${late.rows.map((r) => `${r.name}@${r.position}`).join(' ')} of ${rows[0]!.head}`;
          return false;
        }
        projectedAt ||= Date.now();
        return commandLag().then(
          (lag) => lag === 0,
          (err: unknown) => {
            lagError = err;
            return false;
          },
        );
      };
      let caughtUpAt = 0;
      let projectedAt = 0;
      try {
        const until = healAt + 30_000;
        while (Date.now() < until) {
          if (await caughtUp()) {
            caughtUpAt = Date.now();
            break;
          }
          await sleep(100);
        }
      } finally {
        await admin.disconnect();
      }

      const during = (x: Answer) => x.t0 >= cutAt && x.t0 < healAt;
      const cutOff = there.answers.filter(during);
      const refused = there.answers.filter((x) => x.status === 503);
      const slowest = Math.max(...there.answers.map((x) => x.ms));
      const acknowledged = [...here.answers, ...there.answers].filter((x) => x.status === 201).map((x) => x.id!);
      const report = {
        cutMs: healAt - cutAt,
        hereWrites: here.answers.length,
        hereDuringCut: here.answers
          .filter(during)
          .map((x) => x.status)
          .join(' '),
        hereSlowestMs: Math.max(...here.answers.map((x) => x.ms)),
        thereWrites: there.answers.length,
        thereDuringCut: cutOff.length,
        there503: refused.length,
        thereStatuses: [...new Set(there.answers.map((x) => x.status))].join(' '),
        thereSlowestMs: slowest,
        acknowledged: acknowledged.length,
        writesAnsweredAfterHealMs: answeredAt - healAt,
        caughtUpAfterHealMs: caughtUpAt ? caughtUpAt - healAt : `never (30 s): behind ${behindAtLast || 'none; command lag'}`,
        projectedAfterHealMs: projectedAt - healAt,
        // Each cut-off write: sent (ms after the cut) + answered after (ms): status.
        thereDuringCutDetail: there.answers
          .filter(during)
          .map((x) => `${x.t0 - cutAt}+${x.ms}:${x.status}`)
          .join(' '),
        ...(lagError ? { lagError: lagError instanceof Error ? lagError.message : JSON.stringify(lagError) } : {}),
      };
      console.log(`partition: ${JSON.stringify(report)}`);

      // The cut-off gateway answered every write, and honestly: 201 or 503 problem+json, never a 500
      // or a hang. (Before accounts were kept between requests, each write read its account over a
      // new connection and those got 503; now they mostly wait on open connections and succeed.)
      expect(cutOff.length).toBeGreaterThan(10);
      expect(there.answers.filter((x) => x.status !== 201 && x.status !== 503)).toEqual([]);
      for (const x of refused) expect(x.contentType).toMatch(/^application\/problem\+json/);
      expect(slowest).toBeLessThanOrEqual(ANSWER_BOUND_MS);
      // This side went on taking writes through the cut (a 503 would be a command that waited out its 30 s).
      expect(here.answers.filter((x) => x.status !== 201 && x.status !== 503)).toEqual([]);
      expect(here.answers.filter((x) => during(x) && x.status === 201).length).toBeGreaterThan(10);

      // Nothing acknowledged lost, nothing doubled: one ProductListed per acknowledged id, and per name.
      const { rows } = await db.pool.query<{ stream_id: string; name: string; n: string }>(
        `select stream_id, min(data->>'name') as name, count(*) as n from es.events where type = 'ProductListed' group by stream_id`,
      );
      const listed = new Map(rows.map((r) => [r.stream_id.replace(/^product-/, ''), Number(r.n)]));
      for (const id of acknowledged) expect(listed.get(id), `product ${id}`).toBe(1);
      expect(rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
      const names = rows.map((r) => r.name).filter(Boolean);
      expect(names.length === 0 || new Set(names).size === names.length).toBe(true);

      // Caught up within 5 s of the heal.
      expect(caughtUpAt).toBeGreaterThan(0);
      expect(caughtUpAt - healAt).toBeLessThanOrEqual(CATCH_UP_BOUND_MS);

      // Both gateways list every acknowledged write: this one from here, the cut-off one from inside its namespace.
      const listHere = (await (await fetch(`${a}/api/all_products`)).json()) as { _id: string }[];
      expect(acknowledged.filter((id) => !listHere.some((p) => p._id === id))).toEqual([]);
      await expect
        .poll(
          async () => {
            const { ids = [] } = await oneLine<{ ids?: string[] }>(namespace.node([load, 'list', inside]));
            return acknowledged.filter((id) => !ids.includes(id));
          },
          { timeout: 10_000, interval: 500 },
        )
        .toEqual([]);
    },
  );
});
