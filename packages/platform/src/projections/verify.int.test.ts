import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessChangeFeed } from '../change-feed/in-process';
import { PostgresEventStore } from '../event-store/postgres';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../testing';
import { ev } from '../testing/event-store-contract';
import { projectionMigrations } from './checkpoints';
import { ProjectionRunner } from './runner';
import type { Projection } from './types';
import { describeVerifyResult, type VerifyProgress } from './verify';

/** Two tables, one of them with a json column (no equality operator) and an order-sensitive trail. */
const ledger: Projection = {
  name: 'ledger',
  schema: 'rm_ledger',
  setup: `create table accounts (id text primary key, balance bigint not null, trail text not null);
          create table entries (position bigint primary key, account text not null, detail json not null)`,
  handlers: {
    Moved: async (e, { db }) => {
      await db.query(
        `insert into accounts values ($1, $2, $3) on conflict (id) do update
         set balance = accounts.balance + $2, trail = accounts.trail || ',' || $3`,
        [e.streamId, e.data.n, String(e.data.n)],
      );
      await db.query(`insert into entries values ($1, $2, $3)`, [e.position, e.streamId, JSON.stringify({ n: e.data.n })]);
    },
  },
};

describe('verifying a projection against the log', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let live: ProjectionRunner;
  const feed = new InProcessChangeFeed();
  beforeAll(async () => {
    db = await createTestDatabase('verify');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
    for (let i = 0; i < 300; i++) await store.append(`account-${i % 7}`, [ev('Moved', { n: i }), ev('Ignored')], 'any');
    live = new ProjectionRunner(db.pool, store, feed, ledger, { batchSize: 100 });
    await live.start();
    await live.caughtUp();
  });
  afterAll(async () => {
    await live.stop();
    await store.close();
    await db.drop();
  });
  const scratchLeft = async () => (await db.pool.query(`select 1 from pg_namespace where nspname = 'rm_ledger__verify'`)).rowCount;

  it('says equal when the live tables are what the log makes, and reports its progress', async () => {
    const progress: VerifyProgress[] = [];
    const checker = new ProjectionRunner(db.pool, store, feed, ledger, { batchSize: 100 });
    const result = await checker.verify({ onProgress: (p) => progress.push(p), countEvents: async () => 600 });
    expect(result).toMatchObject({ name: 'ledger', position: 600, equal: true, tables: 2, rows: 7 + 300, differences: [] });
    expect(describeVerifyResult(result)).toEqual(['ledger: equal (307 rows in 2 tables)']);
    expect(progress.at(-1)).toMatchObject({ replayed: 600, total: 600, position: 600, upTo: 600 });
    expect(await scratchLeft()).toBe(0);
  });

  it('stays equal while events keep arriving during the verify', async () => {
    const checker = new ProjectionRunner(db.pool, store, feed, ledger, { batchSize: 20 });
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing && i < 200; i++) await store.append(`account-${i % 5}`, [ev('Moved', { n: 1000 + i })], 'any');
    })();
    // Small replay batches: the writer's events land between P and the comparison.
    let upTo = 0;
    const result = await checker.verify({ onProgress: (p) => (upTo = p.upTo) });
    writing = false;
    await writer;
    // Compared further on than it replayed to at first: the tail (P, C] went into the snapshot's transaction.
    expect(result.position).toBeGreaterThan(upTo);
    expect(result.differences).toEqual([]);
    expect(result.equal).toBe(true);
    await live.caughtUp();
    const after = await new ProjectionRunner(db.pool, store, feed, ledger).verify();
    expect(after.equal).toBe(true);
  });

  it('lists the row that was corrupted, in both versions, and exits the comparison unequal', async () => {
    await live.caughtUp();
    const { rows } = await db.pool.query<{ balance: string }>(`select balance from rm_ledger.accounts where id = 'account-3'`);
    await db.pool.query(`update rm_ledger.accounts set balance = balance + 1 where id = 'account-3'`);
    try {
      const result = await new ProjectionRunner(db.pool, store, feed, ledger).verify();
      expect(result.equal).toBe(false);
      expect(result.differences).toHaveLength(1);
      const [d] = result.differences;
      expect(d).toMatchObject({ table: 'rm_ledger.accounts', onlyLive: 1, onlyRebuilt: 1 });
      expect(d!.rows.map((r) => [r.side, r.row.id, r.row.balance])).toEqual([
        ['live', 'account-3', String(Number(rows[0]!.balance) + 1)],
        ['rebuilt', 'account-3', rows[0]!.balance],
      ]);
      const text = describeVerifyResult(result);
      expect(text[0]).toMatch(/^ledger: DIFFERS at position \d+ \(1 of 2 tables differ/);
      expect(text[1]).toBe('  rm_ledger.accounts: 1 rows only in the live table, 1 only in the rebuilt one');
      expect(text[2]).toContain('"id":"account-3"');
      expect(await scratchLeft()).toBe(0);
    } finally {
      await db.pool.query(`update rm_ledger.accounts set balance = balance - 1 where id = 'account-3'`);
    }
  });

  it('lists at most 20 rows of a table, then how many more differ; a json column counts too', async () => {
    await live.caughtUp();
    // 50 rows (the Moved events at odd positions); the one at position 1 was {"n":0} and now is
    // {"n": 0}: json keeps its text, and verify compares it as text, so that one differs too.
    await db.pool.query(`update rm_ledger.entries set detail = '{"n": 0}' where position <= 100`);
    try {
      const result = await new ProjectionRunner(db.pool, store, feed, ledger).verify();
      const d = result.differences.find((x) => x.table === 'rm_ledger.entries')!;
      expect(d).toMatchObject({ onlyLive: 50, onlyRebuilt: 50 });
      expect(d.rows).toHaveLength(20);
      expect(d.rows.slice(0, 2).map((r) => [r.side, r.row.position, r.row.detail])).toEqual([
        ['live', '1', '{"n": 0}'],
        ['rebuilt', '1', '{"n":0}'],
      ]);
      expect(describeVerifyResult(result).at(-1)).toBe('    … and 80 more differing rows (20 listed)');
    } finally {
      await db.pool.query(
        `update rm_ledger.entries e set detail = json_build_object('n', (select (data->>'n')::int from es.events where position = e.position)) where position <= 100`,
      );
    }
  });
});

describe('a verify report', () => {
  it('when a differing row holds a secret column (a password hash, a token), then its value is never printed', () => {
    const lines = describeVerifyResult({
      name: 'users',
      equal: false,
      position: 7,
      tables: 1,
      rows: 1,
      differences: [
        {
          table: 'rm_identity.users',
          onlyLive: 1,
          onlyRebuilt: 1,
          rows: [
            { side: 'live', row: { id: 'u1', name: 'Tampered', password_hash: '$argon2id$secret-live' } },
            { side: 'rebuilt', row: { id: 'u1', name: 'Karim', password_hash: '$argon2id$secret-rebuilt' } },
          ],
        },
      ],
    });
    const text = lines.join('\n');
    expect(text).toContain('"name":"Tampered"');
    expect(text).toContain('"password_hash":"[hidden]"');
    expect(text).not.toContain('argon2id');
  });
});
