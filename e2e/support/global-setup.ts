import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { freshDatabase } from './fresh-database';
import { ADMIN } from './shop';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/**
 * Starts the whole shop in one process, serving the built web app: a fresh database on
 * TEST_DATABASE_URL when given, else an embedded PostgreSQL in a temp folder.
 */
export default async function setup(project: TestProject) {
  const { startAll } = await import('@tv-shop/gateway');
  const dataDir = await mkdtemp(join(tmpdir(), 'tvshop-e2e-'));
  const database = process.env.TEST_DATABASE_URL ? await freshDatabase(process.env.TEST_DATABASE_URL) : null;
  const server = await startAll({
    port: 0,
    databaseUrl: database?.url,
    dataDir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    webDist: fileURLToPath(new URL('../../web/dist', import.meta.url)),
  });
  project.provide('baseUrl', server.url.replace(/\/$/, ''));

  return async () => {
    await server.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
