import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { inTransaction, withClient, withTransaction } from './database';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('tx');
  await db.pool.query('create table notes (text text not null)');
});
afterAll(async () => {
  await db.drop();
});
const notes = async () => (await db.pool.query<{ text: string }>('select text from notes order by text')).rows.map((r) => r.text);

describe('transactions', () => {
  it('when the work succeeds, then it is committed; when it throws, then nothing of it stays, the error stands and the client goes on', async () => {
    await withClient(db.pool, async (client) => {
      expect(await inTransaction(client, async (c) => (await c.query("insert into notes values ('kept')")).rowCount)).toBe(1);
      const failing = inTransaction(client, async (c) => {
        await c.query("insert into notes values ('undone')");
        throw new Error('changed my mind');
      });
      await expect(failing).rejects.toThrow('changed my mind');
      // Outside any transaction again: this statement commits on its own.
      await client.query("insert into notes values ('after')");
    });
    expect(await notes()).toEqual(['after', 'kept']);
  });

  it('withTransaction: the same, on a client of its own', async () => {
    await expect(
      withTransaction(db.pool, async (c) => {
        await c.query("insert into notes values ('lost')");
        await c.query('select * from no_such_table');
      }),
    ).rejects.toThrow(/no_such_table/);
    await withTransaction(db.pool, (c) => c.query("insert into notes values ('won')"));
    expect(await notes()).toEqual(['after', 'kept', 'won']);
  });
});
