import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka } from 'kafkajs';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresEventStore } from '../event-store/postgres';
import type { NewEvent, RecordedEvent } from '../event-store/types';
import { createTestDatabase, type TestDatabase } from '../testing';
import { kafkaWith } from '../testing/kafka-with';
import { createKafka } from './client';
import { EVENT_HEADERS, KafkaRelay, eventTopicFor, streamCategory, type KafkaRelayOptions } from './relay';

interface Received {
  topic: string;
  partition: number;
  key: string;
  headers: Record<string, string>;
  event: RecordedEvent;
}

const meta = { actorId: 'u-1', actorRole: 'Seller', correlationId: 'c-1', causationId: null, at: '2026-11-21T10:00:00.000Z' };
const ev = (type: string, n: number): NewEvent => ({ eventId: randomUUID(), type, data: { n, text: 'Sony "Bravia" ✓' }, metadata: meta });
const poll = { timeout: 30_000, interval: 50 };

/**
 * `kafka`, except that a relay's batches are never answered while `silent.on`: a broker that
 * stopped answering, as kafkajs meets it (a send retried without end). `silent.hung` counts them.
 */
function silentWhen(kafka: Kafka, silent: { on: boolean; hung: number }): Kafka {
  const producer = (...args: Parameters<Kafka['producer']>) => {
    const real = kafka.producer(...args);
    const transaction = async () => {
      const tx = await real.transaction();
      const sendBatch: typeof tx.sendBatch = (batch) => {
        if (!silent.on) return tx.sendBatch(batch);
        silent.hung++;
        return new Promise(() => {});
      };
      return { ...tx, sendBatch };
    };
    return { ...real, transaction };
  };
  return kafkaWith(kafka, { producer });
}

/** The backoff of each restart a relay announces (ms), from its warnings. */
function restartDelays() {
  const delays: number[] = [];
  const log = {
    debug() {},
    info() {},
    error() {},
    warn(message: string) {
      const delay = /restarting in (\d+) ms/.exec(message)?.[1];
      if (delay) delays.push(Number(delay));
    },
  };
  return { delays, log };
}

/** Per stream, the versions a consumer applies if it skips any version it has already applied. */
function appliedPerStream(messages: Received[]): Map<string, number[]> {
  const applied = new Map<string, number[]>();
  for (const m of messages) {
    const list = applied.get(m.key) ?? [];
    if (list.length === 0 || m.event.version > list[list.length - 1]!) list.push(m.event.version);
    applied.set(m.key, list);
  }
  return applied;
}

describe('kafka event relay', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let kafka: Kafka;
  const consumers: Consumer[] = [];
  const relays: KafkaRelay[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('relay');
    await PostgresEventStore.migrate(db.pool);
    await KafkaRelay.migrate(db.pool);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
    kafka = createKafka({ brokers: inject('kafkaBrokers').split(','), clientId: 'tvshop-relay-test' });
  });
  // Each test's relays and readers end with it, so a later test's appends find no one else publishing.
  afterEach(async () => {
    for (const r of relays.splice(0)) await r.stop();
    for (const c of consumers.splice(0)) await c.disconnect();
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  /** Each test has topics and a relay name of its own, so nothing another test published is counted. */
  const fresh = () => {
    const id = randomUUID().slice(0, 8);
    return { name: `test-${id}`, topicPrefix: `test.${id}.events`, logTopic: `test.${id}.log` };
  };
  /** A relay of this file's store and Kafka, stopped after the test; `opts` may also give it a Kafka that misbehaves. */
  const relay = (opts: { name: string; topicPrefix: string; logTopic: string } & Partial<KafkaRelayOptions>) => {
    const r = new KafkaRelay({ kafka, pool: db.pool, store, ...opts });
    relays.push(r);
    return r;
  };

  /**
   * Reads the topics from their beginning as a consumer group of its own would, collecting the
   * messages of `streams`: a new relay publishes the whole log, earlier tests' streams included.
   */
  const consume = async (topics: string[], streams: string[]) => {
    const received: Received[] = [];
    const consumer = kafka.consumer({ groupId: `test-reader-${randomUUID()}`, maxWaitTimeInMs: 500 });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        if (!streams.includes(message.key!.toString())) return;
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
        received.push({
          topic,
          partition,
          key: message.key!.toString(),
          headers,
          event: JSON.parse(message.value!.toString()) as RecordedEvent,
        });
      },
    });
    return received;
  };

  /** Appends `perStream` events to each stream, the streams' appends running concurrently. */
  const appendTo = async (streams: string[], perStream: number, from = 0) => {
    await Promise.all(
      streams.map(async (s) => {
        for (let i = from; i < from + perStream; i++) await store.append(s, [ev(`Thing${i}`, i)], i === 0 ? 'no_stream' : i - 1);
      }),
    );
  };

  const ours = async (streams: string[]) => (await store.readAll(0, 100_000)).filter((e) => streams.includes(e.streamId));

  it('when streams of two categories are appended, then every event is published once, in order per stream, keyed, with its headers and its recorded JSON', async () => {
    const { name, topicPrefix, logTopic } = fresh();
    const products = [1, 2, 3, 4].map(() => `product-${randomUUID()}`);
    const users = [1, 2].map(() => `user-${randomUUID()}`);
    await appendTo([...products, ...users], 6);
    // One batch with several events of a stream, written by a single append.
    const multi = `product-${randomUUID()}`;
    await store.append(multi, [ev('A', 1), ev('B', 2), ev('C', 3)], 'no_stream');
    products.push(multi);
    // Only `product` is named up front: the `user` topic is made when its first event comes.
    const r = relay({ name, topicPrefix, logTopic, categories: ['product'], batchSize: 7 });
    await r.start();
    await r.caughtUp();

    const topics = [`${topicPrefix}.product`, `${topicPrefix}.user`];
    const received = await consume(topics, [...products, ...users]);
    const expected = await ours([...products, ...users]);
    await expect.poll(() => received.length, poll).toBe(expected.length);

    const admin = kafka.admin();
    await admin.connect();
    const { topics: described } = await admin.fetchTopicMetadata({ topics });
    const { topics: logMeta } = await admin.fetchTopicMetadata({ topics: [logTopic] });
    await admin.disconnect();
    expect(described.map((t) => [t.name, t.partitions.length]).sort()).toEqual(topics.map((t) => [t, 3]));
    expect(logMeta[0]!.partitions).toHaveLength(1);

    for (const m of received) {
      const e = expected.find((x) => x.eventId === m.event.eventId)!;
      expect(m.event).toEqual(e);
      expect(m.topic).toBe(eventTopicFor(e.streamId, topicPrefix));
      expect(m.key).toBe(e.streamId);
      expect(m.headers).toEqual({
        [EVENT_HEADERS.eventId]: e.eventId,
        [EVENT_HEADERS.type]: e.type,
        [EVENT_HEADERS.position]: String(e.position),
        [EVENT_HEADERS.streamVersion]: String(e.version),
        [EVENT_HEADERS.schemaVersion]: '1',
        [EVENT_HEADERS.contentType]: 'application/json',
      });
    }
    // Exactly once each, and in each stream's order on one partition.
    expect(new Set(received.map((m) => m.event.eventId)).size).toBe(expected.length);
    for (const s of [...products, ...users]) {
      const mine = received.filter((m) => m.key === s);
      expect(new Set(mine.map((m) => m.partition)).size).toBe(1);
      expect(mine.map((m) => m.event.version)).toEqual(mine.map((_, i) => i));
      expect(mine.map((m) => m.event.position)).toEqual([...mine.map((m) => m.event.position)].sort((a, b) => a - b));
    }
    // The log topic: every one of them once more, on one partition, in global order.
    const log = await consume([logTopic], [...products, ...users]);
    await expect.poll(() => log.length, poll).toBe(expected.length);
    expect(log.map((m) => m.event)).toEqual(expected);
    expect(new Set(log.map((m) => m.partition))).toEqual(new Set([0]));
    expect(log[0]!.headers).toEqual(received.find((m) => m.event.eventId === log[0]!.event.eventId)!.headers);

    const status = await r.status();
    expect(status).toMatchObject({ name, role: 'leader', lag: 0, error: null });
    expect(status.position).toBe(await store.headPosition());
    const { rows } = await db.pool.query<{ position: string }>('select position from public.kafka_relay where name = $1', [name]);
    expect(Number(rows[0]!.position)).toBe(status.position);
  });

  it('when the relay is stopped and started again, then it goes on from its checkpoint and republishes nothing acknowledged', async () => {
    const { name, topicPrefix, logTopic } = fresh();
    const streams = [1, 2, 3].map(() => `booking-${randomUUID()}`);
    await appendTo(streams, 4);
    const first = relay({ name, topicPrefix, logTopic });
    await first.start();
    await first.caughtUp();
    const reached = first.position;
    await first.stop();
    expect((await first.status()).role).toBe('stopped');

    await appendTo(streams, 3, 4);
    const second = relay({ name, topicPrefix, logTopic });
    await second.start();
    await second.caughtUp();
    expect(second.position).toBeGreaterThan(reached);

    const received = await consume([`${topicPrefix}.booking`], streams);
    const expected = await ours(streams);
    await expect.poll(() => received.length, poll).toBe(expected.length);
    await new Promise((r) => setTimeout(r, 500));
    expect(received.map((m) => m.event.eventId).sort()).toEqual(expected.map((e) => e.eventId).sort());
    for (const s of streams) expect(received.filter((m) => m.key === s).map((m) => m.event.version)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('when it crashed after Kafka acknowledged a batch but before its checkpoint was written, then only that batch comes again, in order', async () => {
    const { name, topicPrefix, logTopic } = fresh();
    const streams = [1, 2].map(() => `product-${randomUUID()}`);
    await appendTo(streams, 5);
    const first = relay({ name, topicPrefix, logTopic, batchSize: 4 });
    await first.start();
    await first.caughtUp();
    await first.stop();
    const events = await ours(streams);
    // The state such a crash leaves: Kafka has everything, the checkpoint is one batch (4 events) behind.
    const behind = events[events.length - 5]!.position;
    await db.pool.query('update public.kafka_relay set position = $2 where name = $1', [name, behind]);

    const again = relay({ name, topicPrefix, logTopic, batchSize: 4 });
    await again.start();
    await again.caughtUp();
    const received = await consume([`${topicPrefix}.product`], streams);
    const republished = events.filter((e) => e.position > behind);
    await expect.poll(() => received.length, poll).toBe(events.length + republished.length);
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toHaveLength(events.length + republished.length);
    const counts = new Map<string, number>();
    for (const m of received) counts.set(m.event.eventId, (counts.get(m.event.eventId) ?? 0) + 1);
    for (const e of events) expect(counts.get(e.eventId), `event at ${e.position}`).toBe(e.position > behind ? 2 : 1);
    // A consumer that skips what it already applied sees each stream whole and in order.
    for (const [, versions] of appliedPerStream(received)) expect(versions).toEqual([0, 1, 2, 3, 4]);
  });

  it('when two relays of one name run, then one publishes and the other stands by, and takes over when the leader stops', async () => {
    const { name, topicPrefix, logTopic } = fresh();
    const streams = [1, 2].map(() => `user-${randomUUID()}`);
    const a = relay({ name, topicPrefix, logTopic, standbyRetryMs: 100 });
    const b = relay({ name, topicPrefix, logTopic, standbyRetryMs: 100 });
    await a.start();
    await b.start();
    expect([(await a.status()).role, (await b.status()).role]).toEqual(['leader', 'standby']);
    await appendTo(streams, 3);
    await a.caughtUp();
    expect((await b.status()).position).toBe(a.position);

    await a.stop();
    await appendTo(streams, 3, 3);
    await expect.poll(async () => (await b.status()).role, poll).toBe('leader');
    await b.caughtUp();
    const received = await consume([`${topicPrefix}.user`], streams);
    const expected = await ours(streams);
    await expect.poll(() => received.length, poll).toBe(expected.length);
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toHaveLength(expected.length);
    for (const s of streams) expect(received.filter((m) => m.key === s).map((m) => m.event.version)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("when the leader's database connection is killed, then it restarts by itself and publishes what came meanwhile, skipping nothing", async () => {
    const { name, topicPrefix, logTopic } = fresh();
    const streams = [1, 2].map(() => `blog-${randomUUID()}`);
    const r = relay({ name, topicPrefix, logTopic });
    await r.start();
    await appendTo(streams, 2);
    await r.caughtUp();
    const killed = await db.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and query like '%pg_try_advisory_lock%'`,
    );
    expect(killed.rowCount).toBeGreaterThan(0);
    await appendTo(streams, 2, 2);
    await expect.poll(async () => (await r.status()).lag, poll).toBe(0);
    expect((await r.status()).role).toBe('leader');
    const received = await consume([`${topicPrefix}.blog`], streams);
    await expect
      .poll(() => [...appliedPerStream(received).values()], poll)
      .toEqual([
        [0, 1, 2, 3],
        [0, 1, 2, 3],
      ]);
  });

  it("when Kafka stops answering the leader's batch, then it gives up within its publish timeout and a standby takes over", async () => {
    const { name, topicPrefix, logTopic } = fresh();
    const streams = [1, 2].map(() => `order-${randomUUID()}`);
    const silent = { on: true, hung: 0 };
    const a = relay({ kafka: silentWhen(kafka, silent), name, topicPrefix, logTopic, publishTimeoutMs: 1000, standbyRetryMs: 100 });
    await a.start();
    const b = relay({ name, topicPrefix, logTopic, standbyRetryMs: 100 });
    await b.start();
    expect([(await a.status()).role, (await b.status()).role]).toEqual(['leader', 'standby']);
    await appendTo(streams, 2);
    await expect.poll(() => silent.hung, poll).toBeGreaterThan(0);
    // Without a bound the leader would wait for ever, holding its lock: nobody would publish.
    await expect.poll(async () => (await b.status()).role, poll).toBe('leader');
    await b.caughtUp();
    expect((await a.status()).error).toMatch(/did not finish within 1000 ms/);
    const received = await consume([`${topicPrefix}.order`], streams);
    await expect
      .poll(() => [...appliedPerStream(received).values()], poll)
      .toEqual([
        [0, 1],
        [0, 1],
      ]);
  });

  it('when the relay is stopped while Kafka does not answer its batch, then the stop still ends within seconds', async () => {
    const { name, topicPrefix, logTopic } = fresh();
    const silent = { on: true, hung: 0 };
    // A publish timeout longer than the stop waits: the stop must not wait for it.
    const r = relay({ kafka: silentWhen(kafka, silent), name, topicPrefix, logTopic, publishTimeoutMs: 60_000 });
    await r.start();
    await appendTo([`order-${randomUUID()}`], 1);
    await expect.poll(() => silent.hung, poll).toBeGreaterThan(0);
    const began = Date.now();
    await r.stop();
    // Its 5 s grace and the disconnects, with room for a slow machine; far from the minute the batch may take.
    expect(Date.now() - began).toBeLessThan(15_000);
    expect((await r.status()).role).toBe('stopped');
  });

  it('when the broker refuses every attempt at a batch (an event larger than it takes), then the relay restarts with a growing backoff, not every 100 ms', async () => {
    // A database of its own: the huge event would stop every other relay of this file too.
    const own = await createTestDatabase('relaybig');
    const ownStore = new PostgresEventStore(own.pool, { pollIntervalMs: 100 });
    const { delays, log } = restartDelays();
    const r = new KafkaRelay({ kafka, pool: own.pool, store: ownStore, ...fresh(), log });
    try {
      await PostgresEventStore.migrate(own.pool);
      await KafkaRelay.migrate(own.pool);
      const huge: NewEvent = { eventId: randomUUID(), type: 'Huge', data: { blob: 'x'.repeat(2_000_000) }, metadata: meta };
      await ownStore.append(`product-${randomUUID()}`, [huge], 'no_stream');
      await r.start();
      await expect.poll(() => delays.length, poll).toBeGreaterThanOrEqual(4);
      // 100 ms doubling, less up to 20 % jitter: 100, 200, 400, 800.
      expect(delays[0]).toBeLessThanOrEqual(100);
      expect(delays[1]).toBeGreaterThanOrEqual(160);
      expect(delays[2]).toBeGreaterThanOrEqual(320);
      expect(delays[3]).toBeGreaterThanOrEqual(640);
      expect(r.position).toBe(0);
      expect((await r.status()).error).not.toBeNull();
    } finally {
      await r.stop();
      await ownStore.close();
      await own.drop();
    }
  });

  it('when a stream id has no category, then its events go to the `other` topic', () => {
    expect(streamCategory('product-42')).toBe('product');
    expect(streamCategory('nodash')).toBe('other');
    expect(streamCategory('-x')).toBe('other');
    expect(eventTopicFor('we!rd-1')).toBe('tvshop.events.we_rd');
  });
});
