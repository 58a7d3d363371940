import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { freshDatabase } from './fresh-database';
import { serveClientPage } from './client-page';
import { ADMIN } from './shop';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** Where the spec's client page is served, on an origin the server allows (CORS_ORIGINS). */
    clientOrigin: string;
    /** The same page on an origin the server does not allow. */
    otherOrigin: string;
    /** The shop's database, for what an operator does beside it (`npm run projector`). */
    databaseUrl: string;
  }
}

/**
 * Starts the whole shop in one process, serving the built web app: a fresh database on
 * TEST_DATABASE_URL when given, else an embedded PostgreSQL in a temp folder.
 */
export default async function setup(project: TestProject) {
  // The server's warnings (a read model behind, a projection retrying, a 4xx/5xx answer) go to
  // the run's output: when a journey fails in CI, they say what the server saw meanwhile.
  process.env.LOG_LEVEL ??= 'warn';
  const { startAll } = await import('@tv-shop/shop');
  const dataDir = await mkdtemp(join(tmpdir(), 'tvshop-e2e-'));
  const client = await serveClientPage();
  const other = await serveClientPage();
  const database = process.env.TEST_DATABASE_URL ? await freshDatabase(process.env.TEST_DATABASE_URL) : null;
  const server = await startAll({
    port: 0,
    databaseUrl: database?.url,
    dataDir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    // WEB_DIST: a build of one's own (two people building web/dist at once would trip each other).
    webDist: process.env.WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url)),
    // The spec's own client, served from another origin, may call the API (original-client journey).
    // Every journey signs its people up from 127.0.0.1, about a hundred in a run of a few minutes:
    // the shop's limit per address (100 in 15 min, tested by auth.int) would refuse the last ones.
    env: { ...process.env, CORS_ORIGINS: client.origin, SIGNUP_PER_CLIENT: '1000' },
  });
  project.provide('baseUrl', server.url.replace(/\/$/, ''));
  project.provide('clientOrigin', client.origin);
  project.provide('otherOrigin', other.origin);
  project.provide('databaseUrl', server.databaseUrl);

  return async () => {
    await server.stop();
    await client.close();
    await other.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
