import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ConcurrencyError, illegalState, tooManyRequests } from './errors';
import { PostgresEventStore } from './event-store/postgres';
import { migrate } from './db/migrate';
import { createLogger } from './log';
import { startPolicy } from './policies';
import { policyCheckpoint, projectionMigrations, readCheckpoint, storeCheckpoint } from './projections/checkpoints';
import { createTestDatabase, type TestDatabase } from './testing';
import { ev } from './testing/event-store-contract';

/**
 * A policy's handler that throws: a refusal is the policy's decision for that event, and it goes on;
 * anything else (a stream still busy past the command's retries, a limit reached, a fault) stops the
 * batch, which is read again until the reaction is done.
 */
describe('policy: refusals and failures of its reactions', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('policy');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('when a reaction is refused, then it is not tried again; when it meets a busy stream, a limit or a fault, then it is tried again until done', async () => {
    const done = new Set<string>();
    const calls: Record<string, number> = {};
    /** A handler that fails its first `failures` calls with `error()`, then does its reaction. */
    const failing = (type: string, failures: number, error: () => Error) => async () => {
      calls[type] = (calls[type] ?? 0) + 1;
      if (calls[type] <= failures) throw error();
      done.add(type);
    };
    await store.append('policy-a', [ev('Busy'), ev('Limited'), ev('Down'), ev('Refused'), ev('After')], 'no_stream');
    const head = await store.headPosition();
    const policy = await startPolicy({
      name: 'reactions',
      pool: db.pool,
      store,
      log: createLogger('policy-test'),
      handlers: {
        Busy: failing('Busy', 2, () => new ConcurrencyError('product-1', '3', 4)),
        Limited: failing('Limited', 1, () => tooManyRequests('Too many writes', { field: 'productId', retryAfter: 1 })),
        Down: failing('Down', 1, () => new AppError('unavailable', 'The database cannot be reached')),
        Refused: failing('Refused', Infinity, () => illegalState('The product was removed', 'productId')),
        After: failing('After', 0, () => new Error('never')),
      },
    });
    try {
      await expect.poll(() => readCheckpoint(db.pool, policyCheckpoint('reactions')), { timeout: 15_000 }).toBe(head);
      expect([...done].sort()).toEqual(['After', 'Busy', 'Down', 'Limited']);
      // Refused once, on the one pass that reached it, and never tried again.
      expect(calls.Refused).toBe(1);
      expect(calls.After).toBe(1);
      // A failure stops the batch, and the next pass does the reactions before it again (at-least-once):
      // five passes in all, one per failure and the last.
      expect(calls).toMatchObject({ Busy: 5, Limited: 3, Down: 2 });
    } finally {
      await policy.stop();
    }
  });

  it('when a member of its group cut off by a partition stores an older position after another went further, then the checkpoint stays where the other left it', async () => {
    const key = policyCheckpoint('zombie');
    await storeCheckpoint(db.pool, key, 120);
    await storeCheckpoint(db.pool, key, 43);
    expect(await readCheckpoint(db.pool, key)).toBe(120);
    await storeCheckpoint(db.pool, key, 121);
    expect(await readCheckpoint(db.pool, key)).toBe(121);
  });
});
