import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { createPool, openDatabase, type Database } from '@tv-shop/platform';

/**
 * The embedded PostgreSQL a running `npm start` keeps under the data dir, if one is running:
 * its postmaster's lock file (`<dataDir>/pg/postmaster.pid`: pid, data dir, start time, port,
 * socket dir, listen address, …) names its port, and `<dataDir>/pg-password` holds the
 * password embedded.ts made for that cluster. Null when there is none to share, or it does not
 * answer (then the caller starts one as before, which also deals with an orphaned postmaster).
 */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | null> {
  const databaseDir = path.resolve(dataDir, 'pg');
  let lines: string[];
  let password: string;
  try {
    lines = (await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n');
    password = (await readFile(path.join(path.dirname(databaseDir), 'pg-password'), 'utf8')).trim();
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0 || !password) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  if (lines[1] && path.resolve(lines[1]) !== databaseDir) return null;
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/tvshop`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return url;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * DATABASE_URL when given; else the running shop's embedded PostgreSQL (closing only our pool,
 * never the server); else an embedded one started for this command and stopped after it.
 */
export async function openOperatorDatabase(opts: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<Database & { shared: boolean }> {
  if (!opts.databaseUrl) {
    const url = await runningEmbeddedUrl(opts.dataDir);
    if (url) {
      const pool = createPool(url, 4);
      return { pool, url, mode: 'embedded', shared: true, close: () => pool.end() };
    }
  }
  return { ...(await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir })), shared: false };
}
