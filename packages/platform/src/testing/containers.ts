import { randomBytes } from 'node:crypto';
import { PostgreSqlContainer } from '@testcontainers/postgresql';
import { RedisContainer } from '@testcontainers/redis';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { freePort } from '../db/embedded';

/**
 * PostgreSQL (and Redis) for a test run, in containers started by testcontainers, for machines
 * where a container engine is the way to get them (`TEST_CONTAINERS=1`, global-setup.ts).
 *
 * - Where the engine can pull images: the official `postgres:15` and `redis:7`, ports mapped.
 * - `TEST_CONTAINER_IMAGES=local`: the stand-ins built by scripts/docker/build-images.sh
 *   (`tvshop/postgres:15`, `tvshop/redis:7`) on the host's network, each on a free port, for an
 *   engine like this project's CI one: no Docker Hub, no bridge networking (dockerd --bridge=none).
 *
 * testcontainers' reaper (Ryuk) is an image of its own that such an engine cannot pull either, so
 * it is switched off unless asked for; `stop()` removes the containers instead.
 */
export interface TestContainers {
  postgresUrl: string;
  redisUrl: string | undefined;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;

export async function startTestContainers(opts: { redis?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<TestContainers> {
  const env = opts.env ?? process.env;
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  const local = env.TEST_CONTAINER_IMAGES === 'local';
  // testcontainers finds the engine's address through its `bridge` network, which an engine
  // started with --bridge=none lacks; on the host's network the containers are on 127.0.0.1.
  if (local) process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  const started: StartedTestContainer[] = [];
  const stop = async () => {
    await Promise.allSettled(started.reverse().map((c) => c.stop({ remove: true, removeVolumes: true })));
  };
  try {
    const password = randomBytes(12).toString('hex');
    let postgresUrl: string;
    if (local) {
      const port = await freePort();
      const pg = await new GenericContainer(env.TEST_POSTGRES_IMAGE ?? 'tvshop/postgres:15')
        .withNetworkMode('host')
        .withEnvironment({ POSTGRES_PASSWORD: password, PGPORT: String(port) })
        // fsync off: a test database is thrown away, and the run is disk-bound without it.
        .withCommand(['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'])
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/))
        .withStartupTimeout(START_TIMEOUT_MS)
        .start();
      started.push(pg);
      postgresUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    } else {
      const pg = await new PostgreSqlContainer(env.TEST_POSTGRES_IMAGE ?? 'postgres:15')
        .withUsername('postgres')
        .withPassword(password)
        .withDatabase('postgres')
        .withCommand([
          'postgres',
          '-c',
          'fsync=off',
          '-c',
          'synchronous_commit=off',
          '-c',
          'full_page_writes=off',
          '-c',
          'max_connections=300',
        ])
        .withStartupTimeout(START_TIMEOUT_MS)
        .start();
      started.push(pg);
      postgresUrl = pg.getConnectionUri();
    }

    let redisUrl: string | undefined;
    if (opts.redis) {
      if (local) {
        const port = await freePort();
        const redis = await new GenericContainer(env.TEST_REDIS_IMAGE ?? 'tvshop/redis:7')
          .withNetworkMode('host')
          .withEnvironment({ REDIS_PORT: String(port) })
          .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
          .withStartupTimeout(START_TIMEOUT_MS)
          .start();
        started.push(redis);
        redisUrl = `redis://127.0.0.1:${port}`;
      } else {
        const redis = await new RedisContainer(env.TEST_REDIS_IMAGE ?? 'redis:7').withStartupTimeout(START_TIMEOUT_MS).start();
        started.push(redis);
        redisUrl = redis.getConnectionUrl();
      }
    }
    return { postgresUrl, redisUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
