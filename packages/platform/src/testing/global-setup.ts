import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

/**
 * One PostgreSQL server for the whole run: TEST_DATABASE_URL when set, otherwise an embedded
 * one in a temporary folder. Each test file makes its own database on it.
 */
export default async function setup(project: TestProject) {
  // TEST_CONTAINERS=1: the server runs in a container (containers.ts); `=postgres,redis` adds
  // a Redis container for the suites that read TEST_REDIS_URL (the forked workers inherit it).
  if (process.env.TEST_CONTAINERS && process.env.TEST_CONTAINERS !== '0') {
    const { startTestContainers } = await import('./containers');
    const containers = await startTestContainers({ redis: process.env.TEST_CONTAINERS.includes('redis') });
    project.provide('databaseServerUrl', containers.postgresUrl);
    if (containers.redisUrl) process.env.TEST_REDIS_URL ??= containers.redisUrl;
    return () => containers.stop();
  }
  if (process.env.TEST_DATABASE_URL) {
    project.provide('databaseServerUrl', process.env.TEST_DATABASE_URL);
    return;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-test-pg-'));
  const server = await startEmbeddedPostgres(dir);
  project.provide('databaseServerUrl', server.url);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
