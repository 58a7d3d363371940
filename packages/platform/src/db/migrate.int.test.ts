import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { migrate } from './migrate';

/**
 * A migration PostgreSQL rolls back because of another transaction (a deadlock with a process still
 * running the previous version: ADR 0050) wrote nothing and is run again; any other failure is not.
 * A sequence counts the attempts: nextval is not undone by a rollback.
 */
describe('migrations: retried after a transient rollback', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('migrate');
    await db.pool.query('create sequence attempts_a; create sequence attempts_b');
  });
  afterAll(async () => {
    await db.drop();
  });

  /** Fails with `code` on its first `fails` attempts, then creates `table`. */
  const flaky = (seq: string, fails: number, code: string, table: string) => `
    do $$ begin
      if nextval('${seq}') <= ${fails} then raise exception 'attempt refused' using errcode = '${code}'; end if;
    end $$;
    create table ${table} (id int);`;

  it('when PostgreSQL rolls a migration back as a deadlock victim twice, then it runs again and lands once', async () => {
    const applied = await migrate(db.pool, 'retry-test', [{ id: '0001-flaky', sql: flaky('attempts_a', 2, '40P01', 'landed_a') }]);
    expect(applied).toEqual(['0001-flaky']);
    expect((await db.pool.query(`select last_value::int as n from attempts_a`)).rows[0].n).toBe(3);
    expect((await db.pool.query(`select count(*)::int as n from public.schema_migrations where owner = 'retry-test'`)).rows[0].n).toBe(1);
    await db.pool.query('select * from landed_a');
  });

  it('when a migration fails for any other reason, then it is not tried again and nothing of it lands', async () => {
    await expect(
      migrate(db.pool, 'fail-test', [{ id: '0001-broken', sql: flaky('attempts_b', 1, 'XX000', 'landed_b') }]),
    ).rejects.toMatchObject({
      code: 'XX000',
    });
    expect((await db.pool.query(`select last_value::int as n from attempts_b`)).rows[0].n).toBe(1);
    expect((await db.pool.query(`select to_regclass('landed_b') is null as missing`)).rows[0].missing).toBe(true);
    expect((await db.pool.query(`select count(*)::int as n from public.schema_migrations where owner = 'fail-test'`)).rows[0].n).toBe(0);
  });
});
