import type pg from 'pg';
import { isTransientRollback } from '../errors';
import { backoffMs } from '../retry';
import { inTransaction, withClient } from './database';

export interface Migration {
  id: string; // 'NNNN-name', applied in order
  sql: string;
}

/** How many times a migration is tried when PostgreSQL keeps rolling it back because of others. */
const MAX_ATTEMPTS = 5;

/**
 * Applies versioned migrations once each, in order, under an advisory lock so that several
 * processes starting at once do not race. `owner` namespaces the ids (platform, projector, ...).
 */
export async function migrate(pool: pg.Pool, owner: string, migrations: Migration[]): Promise<string[]> {
  const applied: string[] = [];
  await withClient(pool, async (client) => {
    await client.query(`select pg_advisory_lock(hashtext('tvshop:migrations'))`);
    try {
      await client.query(`create table if not exists public.schema_migrations (
        owner text not null, id text not null, applied_at timestamptz not null default now(),
        primary key (owner, id))`);
      const { rows } = await client.query<{ id: string }>('select id from public.schema_migrations where owner = $1', [owner]);
      const done = new Set(rows.map((r) => r.id));
      for (const m of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
        if (done.has(m.id)) continue;
        // A migration and its record land together, or neither does. One that PostgreSQL rolls back
        // because of another transaction (a deadlock with a process still running the previous
        // version, say: ADR 0050) wrote nothing, and runs again a little later.
        for (let attempt = 1; ; attempt++) {
          try {
            await inTransaction(client, async () => {
              await client.query(m.sql);
              await client.query('insert into public.schema_migrations (owner, id) values ($1, $2)', [owner, m.id]);
            });
            break;
          } catch (err) {
            if (!isTransientRollback(err) || attempt >= MAX_ATTEMPTS) throw err;
            await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
          }
        }
        applied.push(m.id);
      }
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('tvshop:migrations'))`).catch(() => {});
    }
  });
  return applied;
}
