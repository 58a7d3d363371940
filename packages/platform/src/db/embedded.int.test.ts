import { mkdtemp, readFile, rm, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedServer } from './embedded';

/** The embedded PostgreSQL of `npm start`: its own password, and one shop per data dir. */
describe('embedded PostgreSQL', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
  });
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-embedded-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };
  const started = async (dir: string) => {
    const server = await startEmbeddedPostgres(dir);
    cleanup.push(() => server.stop());
    return server;
  };
  const canConnect = async (url: string) => {
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => {});
    try {
      await c.connect();
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => {});
    }
  };

  it('given a fresh data dir, when it starts, then its password is generated, kept 0600 beside the cluster, and the old constant is refused', async () => {
    const dir = await dataDir();
    const server: EmbeddedServer = await started(dir);
    const password = (await readFile(path.join(dir, 'pg-password'), 'utf8')).trim();
    expect(password.length).toBeGreaterThanOrEqual(24);
    expect((await stat(path.join(dir, 'pg-password'))).mode & 0o777).toBe(0o600);
    expect(server.url).toContain(`:${password}@`);
    expect(await canConnect(server.url)).toBe(true);
    expect(await canConnect(server.url.replace(password, 'tvshop-local'))).toBe(false);

    // A second shop on the same data dir is refused while the first runs, and the first keeps running.
    await expect(startEmbeddedPostgres(dir)).rejects.toThrow(/already running/);
    expect(await canConnect(server.url)).toBe(true);
    await server.stop();
  });

  it('given a cluster made when the password was a constant, when it starts, then the password is changed to a generated one', async () => {
    const dir = await dataDir();
    const first = await started(dir);
    const c = new pg.Client({ connectionString: first.url });
    await c.connect();
    await c.query(`alter role postgres password 'tvshop-local'`);
    await c.end();
    await first.stop();
    await unlink(path.join(dir, 'pg-password'));

    const again = await started(dir);
    const password = (await readFile(path.join(dir, 'pg-password'), 'utf8')).trim();
    expect(password).not.toBe('tvshop-local');
    expect(await canConnect(again.url)).toBe(true);
    expect(await canConnect(again.url.replace(password, 'tvshop-local'))).toBe(false);
    await again.stop();
  });
});
