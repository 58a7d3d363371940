import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeNotice } from './port';
import { changeFeedContract } from '../testing/change-feed-contract';
import { RedisChangeFeed } from './redis';

const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// One channel per run, so parallel runs against the same Redis do not see each other's notices.
const channel = `tvshop:test:changes:${randomUUID()}`;

/** True when Redis answers PING within ~2 s; no retries. */
async function reachable(): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 2000, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  const timeout = new Promise<false>((resolve) => setTimeout(resolve, 2500, false).unref());
  try {
    return await Promise.race([probe.connect().then(() => probe.ping().then((r) => r === 'PONG')), timeout]);
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const up = await reachable();
if (!up) console.warn(`Redis change-feed tests skipped: no Redis answered at ${url} (set TEST_REDIS_URL, or start redis-server).`);

describe.skipIf(!up)(up ? `redis change feed (${url})` : `redis change feed: SKIPPED, Redis unreachable at ${url}`, () => {
  changeFeedContract('redis', async () => ({
    feed: await RedisChangeFeed.connect({ url, channel }),
    second: () => RedisChangeFeed.connect({ url, channel }),
    dispose: async () => {},
  }));

  describe('redis specifics', () => {
    let feed: RedisChangeFeed;
    let raw: Redis;
    beforeAll(async () => {
      feed = await RedisChangeFeed.connect({ url, channel });
      raw = new Redis(url);
    });
    afterAll(async () => {
      await feed.close();
      await raw.quit();
    });

    it('when a batch is published, then it goes out as one message holding the JSON array', async () => {
      const spy = new Redis(url);
      await spy.subscribe(channel);
      const messages: string[] = [];
      spy.on('message', (_c: string, m: string) => messages.push(m));
      const batch: ChangeNotice[] = [
        { kind: 'checkpoint', projection: `p-${randomUUID()}`, position: 1 },
        { kind: 'checkpoint', projection: `p-${randomUUID()}`, position: 2 },
      ];
      await feed.publish(batch);
      await expect.poll(() => messages.map((m) => JSON.parse(m)), { timeout: 5000, interval: 10 }).toEqual([batch]);
      await spy.quit();
    });

    it('when a message is malformed or a listener throws, then it is skipped and later notices still arrive', async () => {
      const p = `p-${randomUUID()}`;
      const seen: ChangeNotice[] = [];
      const offBad = feed.subscribe(() => {
        throw new Error('listener bug');
      });
      const off = feed.subscribe((n) => n.projection === p && seen.push(n));
      for (const junk of ['not json', '{"kind":"checkpoint"}', '[{"kind":"nope","projection":"x"}]', '[1, 2]']) {
        await raw.publish(channel, junk);
      }
      await feed.publish([{ kind: 'checkpoint', projection: p, position: 7 }]);
      await expect.poll(() => seen, { timeout: 5000, interval: 10 }).toEqual([{ kind: 'checkpoint', projection: p, position: 7 }]);
      off();
      offBad();
    });

    it('when Redis cannot be reached, then connect() rejects instead of hanging, and leaves nothing running', async () => {
      // Port 1 refuses connections on any normal host.
      await expect(RedisChangeFeed.connect({ url: 'redis://127.0.0.1:1', channel })).rejects.toThrow(/ECONNREFUSED/);
    });
  });
});
