import pg from 'pg';
import { startEmbeddedPostgres } from './embedded';

export interface Database {
  pool: pg.Pool;
  url: string;
  mode: 'embedded' | 'external';
  close(): Promise<void>;
}

/** How long a connection attempt (or a wait for a free client) may take before it fails. */
export const CONNECT_TIMEOUT_MS = 5000;
/** The longest a single query may take before its caller gets a 503 (a silent server, a cut network). */
export const QUERY_TIMEOUT_MS = 20_000;

/**
 * A pool whose connections can never take the process down. pg emits 'error' on a client when
 * its server goes away between queries (57P01 "terminating connection", a reset socket); with no
 * listener that is an uncaught exception. The pool listens on idle clients; every client also
 * gets a listener of its own here, so a checked-out client losing its server is only marked
 * broken: the query in flight fails, and the pool drops the client when it is released.
 */
export function createPool(url: string, max = 10): pg.Pool {
  // query_timeout: a query on an open connection to a server that went silent (a network cut)
  // gives up and answers 503 instead of waiting for TCP to notice, which takes minutes.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/**
 * Runs `fn` on a client of its own, with an 'error' listener for as long as it is checked out
 * (pools made elsewhere lack createPool's), and releases it; a client that failed is destroyed
 * rather than returned to the pool.
 */
export async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken ??= err;
  };
  client.on('error', onError);
  try {
    return await fn(client);
  } finally {
    // The pool also drops a client whose connection failed during a query (it is not queryable).
    client.removeListener('error', onError);
    client.release(broken);
  }
}

/**
 * `fn` inside BEGIN ... COMMIT on a client the caller holds (one that also runs other statements
 * outside the transaction, such as a session lock); ROLLBACK (best effort) when it throws, and
 * the error stands.
 */
export async function inTransaction<C extends pg.ClientBase, T>(client: C, fn: (client: C) => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
}

/** `fn` inside BEGIN ... COMMIT on a client of its own; ROLLBACK (best effort) when it throws. */
export function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, (client) => inTransaction(client, fn));
}

/** A new pg.Client (LISTEN, advisory locks) with an 'error' listener attached before it connects. */
export function dedicatedClient(pool: pg.Pool, onError: (err: Error) => void): pg.Client {
  // These connections hold leadership (advisory locks). If this process is cut off, the server
  // must notice within seconds, not TCP's two hours, so that it drops the lock and a standby
  // takes over: keepalives and a user timeout on the server's side of this connection.
  const serverSide = '-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3 -c tcp_user_timeout=10000';
  const options = [pool.options.options, serverSide].filter(Boolean).join(' ');
  const client = new pg.Client({ ...pool.options, options, keepAlive: true, keepAliveInitialDelayMillis: 5000 });
  client.on('error', onError);
  return client;
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
