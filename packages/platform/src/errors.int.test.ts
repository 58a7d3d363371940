import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, asUnavailable, isDatabaseUnavailable, isTransientRollback } from './errors';
import { createTestDatabase, type TestDatabase } from './testing';

/** A transaction PostgreSQL rolls back only because of others beside it is a 503 to retry, not a 500. */
describe('errors: transient refusals from PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('errors');
    await db.pool.query('create table t (id int primary key, v int not null); insert into t values (1, 0), (2, 0)');
  });
  afterAll(async () => {
    await db.drop();
  });

  /** Two sessions of their own; whatever they leave open is rolled back. */
  const twoSessions = async (use: (x: pg.PoolClient, y: pg.PoolClient) => Promise<void>) => {
    const [x, y] = [await db.pool.connect(), await db.pool.connect()];
    try {
      await use(x, y);
    } finally {
      for (const c of [x, y]) {
        await c.query('rollback').catch(() => {});
        c.release();
      }
    }
  };

  it("when two transactions lock the same rows in opposite orders, then the deadlock's victim is a retryable 503 and the other commits", async () => {
    await twoSessions(async (x, y) => {
      await x.query('begin');
      await y.query('begin');
      await x.query('update t set v = v + 1 where id = 1');
      await y.query('update t set v = v + 1 where id = 2');
      const outcomes = await Promise.allSettled([
        x.query('update t set v = v + 1 where id = 2'),
        y.query('update t set v = v + 1 where id = 1'),
      ]);
      const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(failed).toHaveLength(1);
      const err = failed[0]!.reason as { code?: string };
      expect(err.code).toBe('40P01');
      expect(isTransientRollback(err)).toBe(true);
      // The connection is fine: the process guard's "connection failure" stays narrow.
      expect(isDatabaseUnavailable(err)).toBe(false);
      expect(asUnavailable(err)).toMatchObject({ kind: 'unavailable', status: 503 });
      // The survivor goes on and commits both of its updates.
      const survivor = outcomes[0].status === 'fulfilled' ? x : y;
      await survivor.query('commit');
      expect((await db.pool.query('select sum(v)::int as n from t')).rows[0].n).toBe(2);
    });
  });

  it('when a lock is not granted within lock_timeout, then that is a retryable 503; a constraint violation stays what it is', async () => {
    await twoSessions(async (x, y) => {
      await x.query('begin');
      await x.query('update t set v = v + 1 where id = 1');
      await y.query('begin');
      await y.query("set local lock_timeout = '50ms'");
      const timedOut = (await y.query('update t set v = v + 1 where id = 1').catch((e: unknown) => e)) as { code?: string };
      expect(timedOut.code).toBe('55P03');
      expect(isTransientRollback(timedOut)).toBe(true);
      expect(asUnavailable(timedOut)).toBeInstanceOf(AppError);
      expect(asUnavailable(timedOut)).toMatchObject({ kind: 'unavailable', status: 503 });
      await x.query('rollback');
      const duplicate = await db.pool.query('insert into t values (1, 0)').catch((e: unknown) => e);
      expect((duplicate as { code?: string }).code).toBe('23505');
      expect(isDatabaseUnavailable(duplicate)).toBe(false);
      expect(isTransientRollback(duplicate)).toBe(false);
      expect(asUnavailable(duplicate)).toBe(duplicate);
    });
  });

  it('when PostgreSQL cannot serialize a transaction, then the code it gives (40001) is a retryable 503', () => {
    // A real serialization failure needs two serializable transactions in a race; the code is what matters here.
    const err = Object.assign(new Error('could not serialize access'), { code: '40001' });
    expect(isTransientRollback(err)).toBe(true);
    expect(asUnavailable(err)).toMatchObject({ kind: 'unavailable', status: 503 });
  });
});
