import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { InProcessChangeFeed } from './change-feed/in-process';
import { migrate } from './db/migrate';
import { PostgresEventStore } from './event-store/postgres';
import type { LogSource, NewEvent } from './event-store/types';
import { createKafka } from './kafka/client';
import { KafkaLogSource } from './kafka/log-source';
import { KafkaRelay } from './kafka/relay';
import { createLogger } from './log';
import { createMetrics, instrumentLogSource, type Metrics } from './metrics';
import { projectionMigrations } from './projections/checkpoints';
import { ProjectionRunner } from './projections/runner';
import type { Projection } from './projections/types';
import { createTestDatabase, type TestDatabase } from './testing';

const meta = { actorId: 'u-1', actorRole: 'Seller', correlationId: 'c-1', causationId: null, at: '2026-11-22T10:00:00.000Z' };
const counted = (): NewEvent => ({ eventId: randomUUID(), type: 'Counted', data: {}, metadata: meta });

function sample(text: string, name: string, label = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(label));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** EVENT_BUS=kafka: a consumer group's lag on the log topic, as the metrics read it from the broker. */
describe('metrics: Kafka consumer lag', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let kafka: Kafka;
  let relay: KafkaRelay;
  let metrics: Metrics;
  let source: LogSource;
  const id = randomUUID().slice(0, 8);
  const projection: Projection = {
    name: `lagged_${id}`,
    schema: `t_lagged_${id}`,
    setup: 'create table seen (n int not null); insert into seen values (0);',
    handlers: {
      Counted: async (_e, { db: tx }) => {
        await tx.query('update seen set n = n + 1');
      },
    },
  };

  beforeAll(async () => {
    db = await createTestDatabase('kmetrics');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    await KafkaRelay.migrate(db.pool);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
    kafka = createKafka({ brokers: inject('kafkaBrokers').split(','), clientId: 'tvshop-metrics-test' });
    relay = new KafkaRelay({
      kafka,
      pool: db.pool,
      store,
      name: `m-${id}`,
      topicPrefix: `mtest.${id}.events`,
      logTopic: `mtest.${id}.log`,
    });
    await relay.start();
    metrics = createMetrics({ service: 'test', defaults: false });
    // The topology's prefix makes the topic `<prefix>.log` and the groups `<prefix>.<name>`, as the adapters do.
    const topology = { events: 'kafka' as const, kafkaBrokers: inject('kafkaBrokers').split(','), kafkaTopicPrefix: `mtest.${id}` };
    const kafkaSource = new KafkaLogSource(kafka, store, {
      topic: `mtest.${id}.log`,
      groupPrefix: `mtest.${id}`,
      log: createLogger('test'),
    });
    source = instrumentLogSource(kafkaSource, metrics, topology, { clientId: 'tvshop-metrics-test', kafka })!;
  });
  afterAll(async () => {
    await metrics?.close();
    await relay?.stop();
    await store?.close();
    await db?.drop();
  });

  it('when events are relayed while the consumer is stopped, then its Kafka lag rises, and falls back to the last transaction marker once it has read them', async () => {
    const scrape = () => metrics.registry.metrics();
    for (let i = 0; i < 3; i++) await store.append(`s-${id}`, [counted()], 'any');
    const first = new ProjectionRunner(db.pool, store, new InProcessChangeFeed(), projection, { source });
    await first.start();
    await first.caughtUp();
    const consumer = `projection.${projection.name}`;
    // Caught up: only the commit marker of the relay's last transaction is beyond its offset.
    await expect
      .poll(async () => sample(await scrape(), 'tvshop_kafka_consumer_lag_offsets', consumer), { timeout: 10_000 })
      .toBeLessThanOrEqual(1);
    expect(sample(await scrape(), 'tvshop_kafka_consumer_delivered_position', consumer)).toBe(await store.headPosition());
    await first.stop();
    expect(await scrape()).not.toContain('tvshop_kafka_consumer_delivered_position{');

    // Four more, relayed while nobody of the group consumes: its lag grows by them.
    for (let i = 0; i < 4; i++) await store.append(`s-${id}`, [counted()], 'any');
    await expect
      .poll(async () => sample(await scrape(), 'tvshop_kafka_consumer_lag_offsets', consumer), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(4);
    const second = new ProjectionRunner(db.pool, store, new InProcessChangeFeed(), projection, { source });
    await second.start();
    await second.caughtUp();
    await expect
      .poll(async () => sample(await scrape(), 'tvshop_kafka_consumer_lag_offsets', consumer), { timeout: 10_000 })
      .toBeLessThanOrEqual(1);
    expect(sample(await scrape(), 'tvshop_kafka_consumer_delivered_position', consumer)).toBe(await store.headPosition());
    await second.stop();
  });
});
