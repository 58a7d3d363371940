import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serveCommands } from '../commands/http-transport';
import type { CommandEnvelope } from '../commands/transport';
import { PostgresEventStore } from '../event-store/postgres';
import { commandBusContract } from '../testing/command-bus-contract';
import { kafkaWith } from '../testing/kafka-with';
import { createTestDatabase } from '../testing';
import { createKafka } from './client';
import { COMMAND_HEADERS, KafkaCommandBus } from './command-bus';

const kafka = (): Kafka => createKafka({ brokers: inject('kafkaBrokers').split(','), clientId: 'tvshop-command-test' });
/** Each bus pair gets topics and groups of its own, so parallel or earlier runs never take each other's commands. */
const prefix = () => `test-${randomUUID().slice(0, 8)}`;

/**
 * `kafka()`, except that requests (the idempotent producer's sends) are never answered while
 * `silent.on`: a broker that stopped answering, as kafkajs meets it (a send retried without end).
 */
function requestsSilentWhen(silent: { on: boolean }): Kafka {
  const real = kafka();
  const producer = (...args: Parameters<Kafka['producer']>) => {
    const p = real.producer(...args);
    if (!args[0]?.idempotent) return p;
    const sendBatch: typeof p.sendBatch = (batch) => (silent.on ? new Promise(() => {}) : p.sendBatch(batch));
    return { ...p, sendBatch };
  };
  return kafkaWith(real, { producer });
}

/**
 * `kafka()`, except that the consumers of the groups `pick` accepts first call `fault()` for each
 * message, and throw what it returns: a bug in the bus's own message handling, as kafkajs meets it.
 * Only that throw is simulated. The crash, its CRASH event, and whether kafkajs restarts the
 * consumer are kafkajs's own, against the real broker: a TypeError it never retries (`restart:
 * false`, the consumer is disconnected for good); a plain Error it retries `retries` times, then
 * restarts the consumer (`restart: true`). `crashes` collects each crash's `restart`.
 */
function faultyConsumers(pick: (groupId: string) => boolean, fault: () => Error | undefined, crashes: boolean[], retries = 2): Kafka {
  const real = kafka();
  const consumer = (...args: Parameters<Kafka['consumer']>) => {
    const [config] = args;
    if (!pick(config.groupId)) return real.consumer(...args);
    // Fewer retries than kafkajs's 15 under test, so that a retried fault crashes the consumer within a second or two.
    const c = real.consumer({ ...config, retry: { ...config.retry, retries } });
    c.on(c.events.CRASH, ({ payload }) => crashes.push(payload.restart));
    const run: typeof c.run = (runConfig) => {
      const eachMessage = runConfig?.eachMessage;
      return c.run({
        ...runConfig,
        ...(eachMessage && {
          eachMessage: async (payload) => {
            const error = fault();
            if (error) throw error;
            return eachMessage(payload);
          },
        }),
      });
    };
    return { ...c, run };
  };
  return kafkaWith(real, { consumer });
}

const envelope = (over: Partial<CommandEnvelope> = {}): CommandEnvelope => ({
  service: 'identity',
  type: 'Echo',
  data: {},
  aggregateId: randomUUID(),
  commandId: randomUUID(),
  actor: { id: 'u-1', role: 'Admin' },
  correlationId: randomUUID(),
  ...over,
});

commandBusContract('kafka', async () => {
  const db = await createTestDatabase('kbus');
  await PostgresEventStore.migrate(db.pool);
  const store = new PostgresEventStore(db.pool);
  const topicPrefix = prefix();
  // Two processes: the service's, and a gateway's that reaches identity and catalog over Kafka (orders not at all).
  const server = await KafkaCommandBus.start({ kafka: kafka(), topicPrefix });
  const timeoutMs = 2500;
  const client = await KafkaCommandBus.start({ kafka: kafka(), topicPrefix, remote: ['identity', 'catalog'], timeoutMs });
  return {
    client,
    server,
    ready: () => server.ready(),
    served: 'identity',
    unconfigured: 'orders',
    absent: { service: 'catalog', within: timeoutMs + 2000 },
    timeoutMs,
    remote: true,
    store,
    async dispose() {
      await client.stop();
      await server.stop();
      await store.close();
      await db.drop();
    },
  };
});

describe('kafka command bus specifics', () => {
  const buses: KafkaCommandBus[] = [];
  let admin: ReturnType<Kafka['admin']>;
  beforeAll(async () => {
    admin = kafka().admin();
    await admin.connect();
  });
  afterAll(async () => {
    for (const b of buses) await b.stop();
    await admin.disconnect();
  });
  const start = async (opts: Omit<Parameters<typeof KafkaCommandBus.start>[0], 'kafka'>) => {
    const bus = await KafkaCommandBus.start({ kafka: kafka(), ...opts });
    buses.push(bus);
    return bus;
  };

  it("when a command is sent, then it travels on the service's topic keyed by aggregate id, and one aggregate's commands are handled in the order sent", async () => {
    const topicPrefix = prefix();
    const seen: string[] = [];
    const server = await start({ topicPrefix });
    server.register('catalog', async (env) => {
      seen.push(`${env.aggregateId}:${(env.data as { n: number }).n}`);
      return { position: (env.data as { n: number }).n, result: {} };
    });
    await server.ready();
    const spy = kafka().consumer({ groupId: `spy-${randomUUID()}`, maxWaitTimeInMs: 500 });
    const wire: { key: string; headers: string[]; partition: number }[] = [];
    await spy.connect();
    await spy.subscribe({ topics: [`${topicPrefix}.commands.catalog`], fromBeginning: true });
    await spy.run({
      eachMessage: async ({ partition, message }) => {
        wire.push({ key: message.key!.toString(), headers: Object.keys(message.headers ?? {}).sort(), partition });
      },
    });

    const client = await start({ topicPrefix, remote: ['catalog'] });
    const aggregates = [randomUUID(), randomUUID(), randomUUID()];
    // Sent without waiting for each other: per aggregate, Kafka keeps them in the order they were sent.
    const sends = aggregates.flatMap((a) =>
      [1, 2, 3, 4, 5].map((n) => client.send(envelope({ service: 'catalog', aggregateId: a, data: { n } }))),
    );
    await Promise.all(sends);
    for (const a of aggregates) expect(seen.filter((s) => s.startsWith(a))).toEqual([1, 2, 3, 4, 5].map((n) => `${a}:${n}`));

    await expect.poll(() => wire.length, { timeout: 15_000 }).toBe(15);
    await spy.disconnect();
    for (const a of aggregates) {
      const mine = wire.filter((w) => w.key === a);
      expect(mine).toHaveLength(5);
      expect(new Set(mine.map((w) => w.partition)).size).toBe(1);
    }
    expect(wire[0]!.headers).toEqual(Object.values(COMMAND_HEADERS).sort());
  });

  it('when a service is registered in the sending process, then its own commands are handled in process, without Kafka', async () => {
    const topicPrefix = prefix();
    const bus = await start({ topicPrefix });
    bus.register('orders', async (env) => ({ position: 3, result: { type: env.type } }));
    // Not waiting for the consumer group: the in-process path needs none.
    expect(await bus.send(envelope({ service: 'orders', type: 'PlaceBooking' }))).toEqual({
      position: 3,
      result: { type: 'PlaceBooking' },
    });
    const offsets = await admin.fetchTopicOffsets(`${topicPrefix}.commands.orders`);
    expect(offsets.every((o) => o.high === '0')).toBe(true);
  });

  it('when a command waited past its deadline because its service was down, then the service skips it when it comes back', async () => {
    const topicPrefix = prefix();
    const client = await start({ topicPrefix, remote: ['identity'], timeoutMs: 1000 });
    const late = envelope({ type: 'CreateUser' });
    await expect(client.send(late)).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
    // The service starts after the sender was told 503: doing the command now would contradict that answer.
    const handled: string[] = [];
    const server = await start({ topicPrefix });
    server.register('identity', async (env) => {
      handled.push(env.commandId);
      return { position: 1, result: {} };
    });
    await server.ready();
    const fresh = envelope({ type: 'CreateUser' });
    const bus = await start({ topicPrefix, remote: ['identity'], timeoutMs: 10_000 });
    await bus.send(fresh);
    expect(handled).toEqual([fresh.commandId]);
  });

  it('when one process of a service stops, then another process of the same service takes its commands', async () => {
    const topicPrefix = prefix();
    const first = await start({ topicPrefix });
    first.register('identity', async () => ({ position: 1, result: { by: 'first' } }));
    await first.ready();
    const client = await start({ topicPrefix, remote: ['identity'], timeoutMs: 30_000 });
    expect((await client.send(envelope())).result).toEqual({ by: 'first' });

    const second = await start({ topicPrefix });
    second.register('identity', async () => ({ position: 1, result: { by: 'second' } }));
    await first.stop();
    await second.ready();
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => client.send(envelope())));
    expect(answers.map((a) => a.result)).toEqual(answers.map(() => ({ by: 'second' })));
  });

  it('when Kafka stops answering, then commands get 503 within their timeout, a full queue refuses at once, and commands flow again once it answers', async () => {
    const topicPrefix = prefix();
    const handled: string[] = [];
    const server = await start({ topicPrefix });
    server.register('identity', async (env) => {
      handled.push(env.commandId);
      return { position: 1, result: {} };
    });
    await server.ready();
    const silent = { on: true };
    const client = await KafkaCommandBus.start({
      kafka: requestsSilentWhen(silent),
      topicPrefix,
      remote: ['identity'],
      timeoutMs: 4000,
      maxQueued: 2,
    });
    buses.push(client);
    const began = Date.now();
    // One is being sent (and never answered), two wait behind it: the queue is full.
    const waiting = [envelope(), envelope(), envelope()].map((e) => client.send(e).catch((err: unknown) => err));
    await expect(client.send(envelope())).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
    expect(Date.now() - began).toBeLessThan(1000);
    for (const answer of await Promise.all(waiting)) expect(answer).toMatchObject({ kind: 'unavailable' });

    // Kafka answers again: the send that never came back no longer holds up the ones after it.
    silent.on = false;
    const fresh = envelope();
    await client.send(fresh);
    expect(handled).toEqual([fresh.commandId]);
  });

  it('when a bus stops, then its reply topic is deleted and its waiting senders get 503', async () => {
    const topicPrefix = prefix();
    const bus = await KafkaCommandBus.start({ kafka: kafka(), topicPrefix, remote: ['catalog'], timeoutMs: 30_000 });
    expect(await admin.listTopics()).toContain(bus.replyTopic);
    const waiting = bus.send(envelope({ service: 'catalog' })).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    await bus.stop();
    expect(await waiting).toMatchObject({ kind: 'unavailable' });
    await expect(bus.send(envelope({ service: 'catalog' }))).rejects.toMatchObject({ kind: 'unavailable' });
    await expect.poll(async () => (await admin.listTopics()).includes(bus.replyTopic), { timeout: 10_000 }).toBe(false);
  });
  it("when kafkajs gives up on the consumer of a service's commands, then the bus says so and the service's /health answers 503", async () => {
    const topicPrefix = prefix();
    const crashes: boolean[] = [];
    const server = await KafkaCommandBus.start({
      kafka: faultyConsumers(
        (g) => g === `${topicPrefix}.identity`,
        () => new TypeError('simulated: a bug in taking a command'),
        crashes,
      ),
      topicPrefix,
    });
    buses.push(server);
    server.register('identity', async () => ({ position: 1, result: {} }));
    await server.ready();
    const health = await serveCommands(server, { port: 0, token: 'a-command-token-of-some-length', health: () => server.health() });
    try {
      expect(server.health()).toEqual({ status: 'ok' });
      expect((await fetch(`${health.url}/health`)).status).toBe(200);

      const client = await start({ topicPrefix, remote: ['identity'], timeoutMs: 3000 });
      await expect(client.send(envelope())).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
      await expect
        .poll(() => server.health())
        .toMatchObject({
          status: 'degraded',
          reason: 'Kafka consumer of identity commands crashed',
          error: expect.any(Error),
        });
      expect(crashes).toEqual([false]);
      expect(client.health()).toEqual({ status: 'ok' });
      const res = await fetch(`${health.url}/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'degraded', reason: 'Kafka consumer of identity commands crashed' });
    } finally {
      await health.close();
    }
  });

  it("when kafkajs gives up on the consumer of a process's replies, then that bus says so", async () => {
    const topicPrefix = prefix();
    const server = await start({ topicPrefix });
    server.register('identity', async () => ({ position: 1, result: {} }));
    await server.ready();
    const crashes: boolean[] = [];
    const client = await KafkaCommandBus.start({
      kafka: faultyConsumers(
        (g) => g.startsWith(`${topicPrefix}.replies.`),
        () => new TypeError('simulated: a bug in taking a reply'),
        crashes,
      ),
      topicPrefix,
      remote: ['identity'],
      timeoutMs: 3000,
    });
    buses.push(client);
    await expect(client.send(envelope())).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
    await expect.poll(() => client.health()).toMatchObject({ status: 'degraded', reason: 'Kafka consumer of replies crashed' });
    expect(crashes).toEqual([false]);
    expect(server.health()).toEqual({ status: 'ok' });
  });

  it('when a consumer crashes and kafkajs restarts it, then the bus stays healthy and the command is taken after the restart', async () => {
    const topicPrefix = prefix();
    const crashes: boolean[] = [];
    const handled: string[] = [];
    // Fails until the first crash: what kafkajs retries and then restarts from.
    const server = await KafkaCommandBus.start({
      kafka: faultyConsumers(
        (g) => g === `${topicPrefix}.identity`,
        () => (crashes.length === 0 ? new Error('simulated: a passing fault') : undefined),
        crashes,
      ),
      topicPrefix,
    });
    buses.push(server);
    server.register('identity', async (env) => {
      handled.push(env.commandId);
      return { position: 1, result: {} };
    });
    await server.ready();
    const client = await start({ topicPrefix, remote: ['identity'], timeoutMs: 45_000 });
    const command = envelope();
    await client.send(command);
    expect(crashes).toEqual([true]);
    expect(handled).toEqual([command.commandId]);
    expect(server.health()).toEqual({ status: 'ok' });
  });
});
