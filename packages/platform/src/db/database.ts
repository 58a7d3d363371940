import pg from 'pg';
import { startEmbeddedPostgres } from './embedded';

export interface Database {
  pool: pg.Pool;
  url: string;
  mode: 'embedded' | 'external';
  close(): Promise<void>;
}

export function createPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client losing its server is reported here; the next query gets a fresh client.
  pool.on('error', () => {});
  return pool;
}

/** DATABASE_URL when given; otherwise a real PostgreSQL started under the data dir. */
export async function openDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  log?: (m: string) => void;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = createPool(opts.databaseUrl);
    return { pool, url: opts.databaseUrl, mode: 'external', close: () => pool.end() };
  }
  const server = await startEmbeddedPostgres(opts.dataDir, opts.log);
  const pool = createPool(server.url);
  return {
    pool,
    url: server.url,
    mode: 'embedded',
    async close() {
      await pool.end();
      await server.stop();
    },
  };
}
