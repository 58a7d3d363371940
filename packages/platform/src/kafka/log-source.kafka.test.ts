import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { InProcessChangeFeed } from '../change-feed/in-process';
import { PostgresEventStore } from '../event-store/postgres';
import type { NewEvent } from '../event-store/types';
import { startPolicy } from '../policies';
import { projectionMigrations, readCheckpoint } from '../projections/checkpoints';
import { ProjectionRunner } from '../projections/runner';
import type { Projection } from '../projections/types';
import { migrate } from '../db/migrate';
import { createLogger } from '../log';
import { createTestDatabase, type TestDatabase } from '../testing';
import { kafkaWith } from '../testing/kafka-with';
import { createKafka } from './client';
import { KafkaLogSource } from './log-source';
import { KafkaRelay } from './relay';

const meta = { actorId: 'u-1', actorRole: 'Seller', correlationId: 'c-1', causationId: null, at: '2026-11-22T10:00:00.000Z' };
const counted = (n: number): NewEvent => ({ eventId: randomUUID(), type: 'Counted', data: { n }, metadata: meta });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `kafka`, except that its consumers misbehave on cue: the first one's `run` fails (so the
 * subscription restarts), and the next ones take `connectMs` to connect. `connecting` counts
 * the connects begun.
 */
function restartingSlowly(kafka: Kafka, connectMs: number) {
  const seen = { made: 0, connecting: 0 };
  const consumer = (...args: Parameters<Kafka['consumer']>) => {
    const real = kafka.consumer(...args);
    const first = ++seen.made === 1;
    const run: typeof real.run = async (config) => {
      if (first) throw new Error('the first consumer fails');
      return real.run(config);
    };
    const connect = async () => {
      seen.connecting++;
      if (!first) await sleep(connectMs);
      return real.connect();
    };
    return { ...real, run, connect };
  };
  return { kafka: kafkaWith(kafka, { consumer }), seen };
}

/**
 * Projections and policies reading the log from Kafka (EVENT_BUS=kafka) through the relay: every
 * event's effect lands exactly once, whatever is redelivered. The read model here is a counter
 * that a second delivery would visibly double, so "exactly once" is what the rows show.
 */
describe('the log from Kafka: projections and policies with exactly-once effects', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let kafka: Kafka;
  let relay: KafkaRelay;
  let source: KafkaLogSource;
  const id = randomUUID().slice(0, 8);
  const streams = Array.from({ length: 8 }, () => `thing-${randomUUID()}`);
  const versions = new Map<string, number>();

  const append = async (perStream: number) => {
    await Promise.all(
      streams.map(async (s) => {
        for (let i = 0; i < perStream; i++) {
          const v = versions.get(s) ?? -1;
          await store.append(s, [counted(i)], v < 0 ? 'no_stream' : v);
          versions.set(s, v + 1);
        }
      }),
    );
  };

  let failOnce: number | null = null;
  const projection: Projection = {
    name: `counts_${id}`,
    schema: `t_counts_${id}`,
    setup: 'create table counts (stream text primary key, n int not null)',
    handlers: {
      Counted: async (e, { db: tx }) => {
        if (failOnce !== null && e.position === failOnce) {
          failOnce = null;
          throw new Error('a fault in the middle of a batch');
        }
        await tx.query('insert into counts values ($1, 1) on conflict (stream) do update set n = counts.n + 1', [e.streamId]);
      },
    },
  };
  const runner = () => new ProjectionRunner(db.pool, store, new InProcessChangeFeed(), projection, { source, batchSize: 25 });
  const counts = async () => {
    const { rows } = await db.pool.query<{ stream: string; n: number }>(
      `select stream, n from ${projection.schema}.counts order by stream`,
    );
    return Object.fromEntries(rows.map((r) => [r.stream, r.n]));
  };
  const expected = () => Object.fromEntries([...versions].map(([s, v]) => [s, v + 1]).sort());

  beforeAll(async () => {
    db = await createTestDatabase('logsrc');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    await KafkaRelay.migrate(db.pool);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
    kafka = createKafka({ brokers: inject('kafkaBrokers').split(','), clientId: 'tvshop-log-source-test' });
    relay = new KafkaRelay({
      kafka,
      pool: db.pool,
      store,
      name: `log-${id}`,
      topicPrefix: `test.${id}.events`,
      logTopic: `test.${id}.log`,
    });
    await relay.start();
    source = new KafkaLogSource(kafka, store, { topic: `test.${id}.log`, groupPrefix: `test.${id}`, log: createLogger('test') });
  });
  afterAll(async () => {
    await relay?.stop();
    await store?.close();
    await db?.drop();
  });

  it('when a projection reads from Kafka, is stopped, and starts again after more writes, then every event counted once', async () => {
    await append(10);
    const first = runner();
    await first.start();
    await first.caughtUp();
    expect(await counts()).toEqual(expected());
    await first.stop();

    // Written while no one consumes: the next runner resumes from its checkpoint, and what Kafka
    // redelivers from before it (its offset was committed after the rows) changes nothing.
    await append(15);
    const second = runner();
    await second.start();
    await second.caughtUp();
    expect(await counts()).toEqual(expected());
    expect(await readCheckpoint(db.pool, projection.name)).toBe(await store.headPosition());
    await second.stop();
  });

  it('when a batch fails half way, then it is rolled back and read again from Kafka, and still counted once', async () => {
    const r = runner();
    await r.start();
    await r.caughtUp();
    const head = await store.headPosition();
    failOnce = head + 30;
    await append(8);
    await r.caughtUp();
    expect(failOnce).toBeNull(); // the fault did happen
    expect(await counts()).toEqual(expected());
    await r.stop();
  });

  it('when the read model is rebuilt from nothing (its checkpoint back to 0), then Kafka is read from its start again', async () => {
    await db.pool.query(`drop schema ${projection.schema} cascade`);
    const r = runner();
    await r.start();
    await r.caughtUp();
    expect(await counts()).toEqual(expected());
    await r.stop();
  });

  it('when a policy reads from Kafka, then it reacts to each event once across a restart', async () => {
    const seen: number[] = [];
    const start = () =>
      startPolicy({
        name: `count-${id}`,
        pool: db.pool,
        store,
        source,
        log: createLogger('test'),
        handlers: {
          Counted: async (e) => {
            seen.push(e.position);
          },
        },
      });
    const first = await start();
    await first.caughtUp();
    await first.stop();
    await append(3);
    const second = await start();
    await second.caughtUp();
    await second.stop();
    const all = (await store.readAll(0, 100_000)).filter((e) => e.type === 'Counted').map((e) => e.position);
    expect(seen).toEqual(all);
  });

  it('when applying a batch takes longer than the session timeout, then the consumer keeps its place in the group (it heartbeats meanwhile)', async () => {
    await append(2);
    const head = await store.headPosition();
    const applied: number[] = [];
    const errors: string[] = [];
    let slow = true;
    const sub = source.subscribe({
      name: `slow-${id}`,
      from: head - 4,
      onBatch: async ({ events }) => {
        // Longer than the 10 s session timeout: a member silent that long is evicted, and its offset commit refused.
        if (slow) await sleep(12_000);
        slow = false;
        applied.push(...events.map((e) => e.position));
      },
      onError: (err) => errors.push(String(err)),
    });
    try {
      await expect.poll(() => applied.length, { timeout: 40_000 }).toBeGreaterThanOrEqual(4);
      await append(1);
      await sub.caughtUp();
      // No commit refused (nor anything applied twice): it was still the member the partition was given to.
      expect(errors).toEqual([]);
      expect(applied).toEqual((await store.readAll(head - 4, 1000)).map((e) => e.position));
    } finally {
      await sub.stop();
    }
  }, 60_000);

  it('when a subscription is stopped while it restarts after a failure, then no consumer of it runs afterwards', async () => {
    const { kafka: flaky, seen } = restartingSlowly(kafka, 1500);
    const flakySource = new KafkaLogSource(flaky, store, { topic: `test.${id}.log`, groupPrefix: `test.${id}`, log: createLogger('test') });
    const applied: number[] = [];
    const sub = flakySource.subscribe({
      name: `stopped-${id}`,
      from: 0,
      onBatch: async ({ events }) => {
        applied.push(...events.map((e) => e.position));
      },
    });
    // The restart's consumer is connecting (slowly) when the stop comes.
    await expect.poll(() => seen.connecting, { timeout: 10_000 }).toBe(2);
    await sub.stop();
    // Long enough for a consumer that went on to connect, join its group and be given the log.
    await sleep(6000);
    const admin = kafka.admin();
    await admin.connect();
    try {
      // The earlier tests left events on the log's topic: a consumer that went on would have applied them.
      const [offsets] = await admin.fetchTopicOffsets(`test.${id}.log`);
      expect(Number(offsets?.high ?? 0)).toBeGreaterThan(0);
      expect(applied).toEqual([]);
      const { groups } = await admin.describeGroups([`test.${id}.stopped-${id}`]);
      expect(groups[0]?.members ?? []).toEqual([]);
    } finally {
      await admin.disconnect();
    }
  });

  // Last: it leaves another log's events on this file's topic.
  it('when another shop relays its log to the same topic, then none of its events is applied and the consumer says why', async () => {
    const other = await createTestDatabase('logsrc2');
    const otherStore = new PostgresEventStore(other.pool, { pollIntervalMs: 100 });
    try {
      await PostgresEventStore.migrate(other.pool);
      await KafkaRelay.migrate(other.pool);
      const head = await store.headPosition();
      // Far enough that its positions pass ours: only the event ids tell the logs apart.
      for (let i = 0; i < head + 5; i++) await otherStore.append(`thing-${randomUUID()}`, [counted(i)], 'no_stream');
      const otherRelay = new KafkaRelay({
        kafka,
        pool: other.pool,
        store: otherStore,
        name: `other-${id}`,
        topicPrefix: `test.${id}.other`,
        logTopic: `test.${id}.log`,
      });
      await otherRelay.start();
      await otherRelay.caughtUp();
      await otherRelay.stop();

      const applied: number[] = [];
      const errors: string[] = [];
      const sub = source.subscribe({
        name: `foreign-${id}`,
        from: head,
        onBatch: async ({ events }) => {
          applied.push(...events.map((e) => e.position));
        },
        onError: (err) => errors.push(String(err)),
      });
      await expect.poll(() => errors.length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(errors[0]).toMatch(/where this event store has.*KAFKA_TOPIC_PREFIX/);
      expect(applied).toEqual([]);
      await sub.stop();
    } finally {
      await otherStore.close();
      await other.drop();
    }
  });
});
