import { describe, expect, it } from 'vitest';
import { serveCommands, type TransportHealth } from './http-transport';
import { InProcessCommandBus } from './transport';

const TOKEN = 'a-command-token-of-some-length';

describe("a service's /health", () => {
  it('when no transport health is given, then it answers 200 ok', async () => {
    const server = await serveCommands(new InProcessCommandBus(), { port: 0, token: TOKEN });
    try {
      const res = await fetch(`${server.url}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    } finally {
      await server.close();
    }
  });

  it('when the transport says it cannot take commands, then it answers 503 with the reason, and 200 again while it can', async () => {
    let health: TransportHealth & { error?: Error } = { status: 'ok' };
    const server = await serveCommands(new InProcessCommandBus(), { port: 0, token: TOKEN, health: () => health });
    try {
      const ok = await fetch(`${server.url}/health`);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ status: 'ok' });

      // As KafkaCommandBus.health() says it once kafkajs gave up on a consumer: the error itself stays in the log.
      health = { status: 'degraded', reason: 'Kafka consumer of identity commands crashed', error: new Error('secret detail') };
      const down = await fetch(`${server.url}/health`);
      expect(down.status).toBe(503);
      expect(down.headers.get('content-type')).toBe('application/json');
      expect(down.headers.get('cache-control')).toBe('no-store');
      expect(await down.json()).toEqual({ status: 'degraded', reason: 'Kafka consumer of identity commands crashed' });

      health = { status: 'ok' };
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
