import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServiceHost } from '../service-host';
import { createTestDatabase, type TestDatabase } from '../testing';
import { topologyFor } from '../topology';
import { createKafka } from './client';
import { KafkaCommandBus } from './command-bus';

/** A service in its own process with COMMAND_BUS=kafka (`startServiceHost`), against a real broker. */
describe('a service host with commands over Kafka', () => {
  let db: TestDatabase;
  const brokers = () => inject('kafkaBrokers').split(',');
  const admin = () => createKafka({ brokers: brokers(), clientId: 'tvshop-service-host-test' }).admin();
  beforeAll(async () => {
    db = await createTestDatabase('host');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('when the service fails to start, then the host closes what it opened: no reply topic of it is left behind', async () => {
    const kafkaTopicPrefix = `test-${randomUUID().slice(0, 8)}`;
    const topology = topologyFor(
      { remoteServices: {}, redisUrl: undefined, projector: 'external', commandBus: 'kafka', kafkaBrokers: brokers(), kafkaTopicPrefix },
      'identity',
    );
    let opened = false;
    const started = startServiceHost({
      name: 'identity',
      databaseUrl: db.url,
      port: 0,
      token: randomUUID(),
      topology,
      start: async ({ bus }) => {
        opened = bus instanceof KafkaCommandBus;
        throw new Error('the service could not start');
      },
    });
    await expect(started).rejects.toThrow('the service could not start');
    expect(opened).toBe(true);
    // A supervisor restarting a crashing service would otherwise leave a topic (and a group) per try.
    const kafka = admin();
    await kafka.connect();
    try {
      const topics = await kafka.listTopics();
      expect(topics).toContain(`${kafkaTopicPrefix}.commands.identity`);
      expect(topics.filter((t) => t.startsWith(`${kafkaTopicPrefix}.replies.`))).toEqual([]);
    } finally {
      await kafka.disconnect();
    }
  });
});
