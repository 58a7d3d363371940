import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '../db/database';

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** A fresh, empty database on the run's PostgreSQL server, dropped again by `drop()`. */
export async function createTestDatabase(prefix = 't'): Promise<TestDatabase> {
  const serverUrl = inject('databaseServerUrl');
  const name = `tvshop_${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = createPool(url, 20);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
export { deciderSpec } from './decider-spec';
export { projectionSpec, type GivenEvent, type SpecPush, type SpecOutcome, type SpecExpectation } from './projection-spec';
export { commandBusContract, type CommandBusUnderTest } from './command-bus-contract';
