import { describe, expect, it } from 'vitest';
import { describeTopology, topologyFor, topologyFromEnv } from './topology';

describe('topology: what runs in this process in each mode', () => {
  it('given nothing configured (npm start), then everything runs here, in process', () => {
    const t = topologyFor({ remoteServices: {}, redisUrl: undefined, projector: 'in-process' });
    expect(t).toEqual({
      servicesHere: ['identity', 'catalog', 'orders'],
      servicesElsewhere: {},
      commandBus: 'in-process',
      changeFeed: 'in-process',
      events: 'store',
      eventStore: 'postgres',
      projectionsHere: true,
      relayHere: false,
      kafkaBrokers: [],
      kafkaTopicPrefix: 'tvshop',
    });
    expect(describeTopology(t)).toBe(
      'services here: identity, catalog, orders; projections here; commands in-process; changes in-process; log from store; store postgres',
    );
  });

  it('given services apart and the projector apart, then commands go over HTTP and changes over Redis', () => {
    const t = topologyFor({
      remoteServices: { identity: 'http://127.0.0.1:4001', orders: 'http://127.0.0.1:4003' },
      redisUrl: 'redis://127.0.0.1:6379',
      projector: 'external',
    });
    expect(t.servicesHere).toEqual(['catalog']);
    expect(t.commandBus).toBe('http');
    expect(t.changeFeed).toBe('redis');
    expect(t.projectionsHere).toBe(false);
    expect(describeTopology(t)).toContain('identity at http://127.0.0.1:4001');
  });

  it('given a service in its own process, then only it runs there and it reaches the others over HTTP', () => {
    const t = topologyFromEnv('orders', { CATALOG_URL: 'http://127.0.0.1:4002', ORDERS_URL: 'http://127.0.0.1:4003' });
    expect(t.servicesHere).toEqual(['orders']);
    // Its own URL is how others reach it, never a place it sends its own commands to.
    expect(t.servicesElsewhere).toEqual({ catalog: 'http://127.0.0.1:4002' });
    expect(t.commandBus).toBe('http');
    expect(t.projectionsHere).toBe(false);
  });

  it('given the projector host, then it runs the projections and no service', () => {
    const t = topologyFromEnv('projector', { REDIS_URL: 'redis://127.0.0.1:6379', PROJECTOR: 'external' });
    expect(t).toMatchObject({ servicesHere: [], projectionsHere: true, changeFeed: 'redis' });
  });

  it('given PROJECTOR=external on the gateway, then it runs no projection', () => {
    expect(topologyFromEnv('gateway', { PROJECTOR: 'external', REDIS_URL: 'redis://x' }).projectionsHere).toBe(false);
  });

  it('given the stack over Kafka (npm run stack), then each process knows its part and the projector host relays the log', () => {
    const env = {
      KAFKA_BROKERS: '127.0.0.1:19092',
      COMMAND_BUS: 'kafka',
      EVENT_BUS: 'kafka',
      SERVICES_APART: 'all',
      PROJECTOR: 'external',
    };
    const gateway = topologyFromEnv('gateway', env);
    expect(gateway).toMatchObject({ servicesHere: [], commandBus: 'kafka', events: 'kafka', projectionsHere: false, relayHere: false });
    expect(gateway.servicesElsewhere).toEqual({ identity: 'kafka', catalog: 'kafka', orders: 'kafka' });
    expect(topologyFromEnv('catalog', env)).toMatchObject({ servicesHere: ['catalog'], commandBus: 'kafka', events: 'kafka' });
    expect(topologyFromEnv('projector', env)).toMatchObject({
      projectionsHere: true,
      relayHere: true,
      commandBus: 'in-process',
      kafkaBrokers: ['127.0.0.1:19092'],
    });
    expect(topologyFromEnv('gateway', { ...env, KAFKA_TOPIC_PREFIX: 'shop-2' }).kafkaTopicPrefix).toBe('shop-2');
    expect(() => topologyFromEnv('gateway', { ...env, KAFKA_TOPIC_PREFIX: 'a b' })).toThrow(/KAFKA_TOPIC_PREFIX/);
  });

  it('given Kafka asked for without brokers, or a value that is not a choice, then the start stops naming the variable', () => {
    expect(() => topologyFromEnv('gateway', { EVENT_BUS: 'kafka' })).toThrow(/KAFKA_BROKERS/);
    expect(() => topologyFromEnv('gateway', { COMMAND_BUS: 'carrier-pigeon' })).toThrow(/COMMAND_BUS/);
    expect(() => topologyFromEnv('gateway', { SERVICES_APART: 'billing' })).toThrow(/SERVICES_APART/);
  });
});
