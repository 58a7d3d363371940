// What every API benchmark starts from: the whole shop in this process on a fresh embedded
// PostgreSQL (or DATABASE_URL), quiet, with a JSON fetch helper and a percentile.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startAll } from '../src/start';

export async function startBenchShop(name: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `tvshop-bench-${name}-`));
  const shop = await startAll({
    port: 0,
    dataDir: dir,
    webDist: path.join(dir, 'none'),
    // Benchmarks list thousands of TVs as a handful of sellers: the listing limits are off (ADR 0035).
    env: { LOG_LEVEL: 'error', LISTING_LIMIT_ACTIVE: '0', LISTING_LIMIT_PER_HOUR: '0' },
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  });
  const api = (p: string, init: RequestInit = {}, token?: string) =>
    fetch(`${shop.url}/api${p}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  return {
    url: shop.url,
    api,
    /**
     * Waits until PostgreSQL's autovacuum has analysed the catalog's tables since a bulk load (as
     * it does within a minute or so in production), so that searches are timed with the planner's
     * statistics of the catalogue they search rather than of the one before the load.
     */
    async settled(): Promise<number> {
      const t0 = performance.now();
      const pool = new pg.Pool({ connectionString: shop.databaseUrl, max: 1 });
      try {
        for (;;) {
          const { rows } = await pool.query<{ stale: boolean }>(
            `select bool_or(n_mod_since_analyze > 0.1 * greatest(n_live_tup, 1000)) as stale
               from pg_stat_user_tables where schemaname = 'rm_catalog' and relname in ('products', 'search_words')`,
          );
          if (!rows[0]?.stale || performance.now() - t0 > 180_000) return (performance.now() - t0) / 1000;
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      } finally {
        await pool.end();
      }
    },
    async stop() {
      await shop.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The p-th percentile of `xs` in ms, to a tenth. */
export const pct = (xs: number[], p: number): string =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!.toFixed(1);
