import pg from 'pg';
import { inject } from 'vitest';
import { InProcessChangeFeed } from '../change-feed/in-process';
import { createPool } from '../db/database';
import { migrate } from '../db/migrate';
import { PostgresEventStore } from '../event-store/postgres';
import { projectionMigrations } from '../projections/checkpoints';
import { ProjectionRunner } from '../projections/runner';
import type { Projection } from '../projections/types';

export { storeWithSwapWindow } from './swap-window';

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
export interface TestLog<S extends PostgresEventStore = PostgresEventStore> {
  db: TestDatabase;
  store: S;
  /** Stops the projection, closes the store and drops the database. */
  stop(): Promise<void>;
}

/**
 * What a service's policy or command spec starts from: a fresh database with the event store's
 * and the checkpoints' tables, a store on it (`makeStore`, for a store that misbehaves on cue),
 * and `projection` running, so the read model the code under test reads keeps up with the log.
 */
export async function createTestLog<S extends PostgresEventStore = PostgresEventStore>(
  prefix: string,
  projection: Projection,
  makeStore: (pool: pg.Pool) => S = (pool) => new PostgresEventStore(pool, { pollIntervalMs: 100 }) as S,
): Promise<TestLog<S>> {
  const db = await createTestDatabase(prefix);
  await PostgresEventStore.migrate(db.pool);
  await migrate(db.pool, 'projections', projectionMigrations);
  const store = makeStore(db.pool);
  const runner = new ProjectionRunner(db.pool, store, new InProcessChangeFeed(), projection);
  await runner.start();
  return {
    db,
    store,
    async stop() {
      await runner.stop();
      await store.close();
      await db.drop();
    },
  };
}

export { deciderSpec } from './decider-spec';
export { projectionSpec, type GivenEvent, type SpecPush, type SpecOutcome, type SpecExpectation } from './projection-spec';
export { commandBusContract, type CommandBusUnderTest } from './command-bus-contract';
export { refusalUnder, VISITOR } from './senders';
