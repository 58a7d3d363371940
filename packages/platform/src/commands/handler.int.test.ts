import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, illegalState } from '../errors';
import { PostgresEventStore } from '../event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../testing';
import type { Decider } from './decider';
import { handleCommand, StateCache, type CommandContext } from './handler';

type Cmd = { type: 'Deposit'; amount: number } | { type: 'Withdraw'; amount: number };
type Evt = { type: 'Deposited'; data: { amount: number } } | { type: 'Withdrawn'; data: { amount: number } };
const account: Decider<Cmd, Evt, { balance: number }> = {
  initialState: () => ({ balance: 0 }),
  evolve: (s, e) => ({ balance: s.balance + (e.type === 'Deposited' ? e.data.amount : -e.data.amount) }),
  decide: (c, s) => {
    if (c.type === 'Deposit') return [{ type: 'Deposited', data: { amount: c.amount } }];
    if (s.balance < c.amount) throw illegalState('Insufficient balance', 'amount');
    return [{ type: 'Withdrawn', data: { amount: c.amount } }];
  },
};
const ctx = (commandId = randomUUID()): CommandContext => ({
  commandId,
  actor: { id: 'u-1', role: 'Buyer' },
  correlationId: commandId,
  now: () => new Date('2026-11-21T10:00:00Z'),
});

/** The store, counting its reads of streams. */
function countingReads(store: PostgresEventStore) {
  const reads = { stream: 0, both: 0 };
  const counting = Object.assign(Object.create(store) as PostgresEventStore, {
    readStream: (...a: Parameters<PostgresEventStore['readStream']>) => (reads.stream++, store.readStream(...a)),
    readStreamAndEvent: (...a: Parameters<PostgresEventStore['readStreamAndEvent']>) => (reads.both++, store.readStreamAndEvent(...a)),
    append: (...a: Parameters<PostgresEventStore['append']>) => store.append(...a),
    findEvent: (...a: Parameters<PostgresEventStore['findEvent']>) => store.findEvent(...a),
  });
  return { reads, counting };
}

describe('command handler', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('cmd');
    await PostgresEventStore.migrate(db.pool);
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('when the same command id arrives twice, then it lands once and both answers are the same', async () => {
    const stream = `account-${randomUUID()}`;
    const c = ctx();
    const first = await handleCommand(store, account, stream, { type: 'Deposit', amount: 10 }, c);
    const again = await handleCommand(store, account, stream, { type: 'Deposit', amount: 10 }, c);
    expect(again.alreadyDone).toBe(true);
    expect(again.position).toBe(first.position);
    expect(again.events.map((e) => e.eventId)).toEqual(first.events.map((e) => e.eventId));
    expect(await store.readStream(stream)).toHaveLength(1);
    expect(first.events[0]!.metadata).toMatchObject({
      actorId: 'u-1',
      actorRole: 'Buyer',
      commandId: c.commandId,
      at: '2026-11-21T10:00:00.000Z',
    });
  });

  it('when the same command id races itself, then it still lands once', async () => {
    const stream = `account-${randomUUID()}`;
    const c = ctx();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => handleCommand(store, account, stream, { type: 'Deposit', amount: 1 }, c)),
    );
    expect(new Set(answers.map((a) => a.position)).size).toBe(1);
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  it('when writers conflict, then each re-decides on the new state and the invariant holds', async () => {
    const stream = `account-${randomUUID()}`;
    await handleCommand(store, account, stream, { type: 'Deposit', amount: 5 }, ctx());
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => handleCommand(store, account, stream, { type: 'Withdraw', amount: 1 }, ctx(), 20)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(ok).toBe(5);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(AppError);
    const events = await store.readStream(stream);
    expect(events.filter((e) => e.type === 'Withdrawn')).toHaveLength(5);
  });

  it('when the decision is refused, then nothing is appended and the typed error carries the field', async () => {
    const stream = `account-${randomUUID()}`;
    await expect(handleCommand(store, account, stream, { type: 'Withdraw', amount: 1 }, ctx())).rejects.toMatchObject({
      kind: 'illegal_state',
      field: 'amount',
      status: 409,
    });
    expect(await store.readStream(stream)).toEqual([]);
  });

  describe('a command that starts its stream (expectNew)', () => {
    it('when the stream is new, then it is appended without reading first, and a retry answers the first outcome', async () => {
      const stream = `account-${randomUUID()}`;
      const c = ctx();
      const { reads, counting } = countingReads(store);
      const first = await handleCommand(counting, account, stream, { type: 'Deposit', amount: 10 }, c, { expectNew: true });
      expect(reads).toEqual({ stream: 0, both: 0 });
      expect(first.alreadyDone).toBe(false);
      const again = await handleCommand(counting, account, stream, { type: 'Deposit', amount: 10 }, c, { expectNew: true });
      expect(again).toMatchObject({ alreadyDone: true, position: first.position });
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it('when the stream already exists, then it is decided on its history as usual', async () => {
      const stream = `account-${randomUUID()}`;
      await handleCommand(store, account, stream, { type: 'Deposit', amount: 5 }, ctx());
      const out = await handleCommand(store, account, stream, { type: 'Withdraw', amount: 5 }, ctx(), { expectNew: true });
      expect(out.events.map((e) => e.type)).toEqual(['Withdrawn']);
      await expect(
        handleCommand(store, account, stream, { type: 'Withdraw', amount: 1 }, ctx(), { expectNew: true }),
      ).rejects.toMatchObject({
        kind: 'illegal_state',
      });
      expect((await store.readStream(stream)).map((e) => e.version)).toEqual([0, 1]);
    });

    it('when the same new command races itself, then it lands once', async () => {
      const stream = `account-${randomUUID()}`;
      const c = ctx();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => handleCommand(store, account, stream, { type: 'Deposit', amount: 1 }, c, { expectNew: true })),
      );
      expect(new Set(answers.map((a) => a.position)).size).toBe(1);
      expect(await store.readStream(stream)).toHaveLength(1);
    });
  });

  describe('with a cache of the states it appended (StateCache)', () => {
    it('when this process wrote the stream last, then the next command is decided on the kept state without reading the stream', async () => {
      const stream = `account-${randomUUID()}`;
      const cache = new StateCache<{ balance: number }>();
      const { reads, counting } = countingReads(store);
      await handleCommand(counting, account, stream, { type: 'Deposit', amount: 5 }, ctx(), { expectNew: true, cache });
      await handleCommand(counting, account, stream, { type: 'Withdraw', amount: 2 }, ctx(), { cache });
      await handleCommand(counting, account, stream, { type: 'Withdraw', amount: 3 }, ctx(), { cache });
      expect(reads).toEqual({ stream: 0, both: 0 });
      expect(cache.get(stream)).toEqual({ version: 2, state: { balance: 0 } });
      // Refused on the kept state: read, and refused on the stream as it is.
      await expect(handleCommand(counting, account, stream, { type: 'Withdraw', amount: 1 }, ctx(), { cache })).rejects.toMatchObject({
        kind: 'illegal_state',
      });
      expect(reads.both).toBe(1);
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['Deposited', 'Withdrawn', 'Withdrawn']);
    });

    it('when another process wrote the stream since, then the stale state costs a conflict, the stream is read and the decision made on it', async () => {
      const stream = `account-${randomUUID()}`;
      const here = new StateCache<{ balance: number }>();
      const there = new StateCache<{ balance: number }>();
      await handleCommand(store, account, stream, { type: 'Deposit', amount: 5 }, ctx(), { cache: here });
      await handleCommand(store, account, stream, { type: 'Withdraw', amount: 4 }, ctx(), { cache: there });
      // Here still believes 5: allowed on that, the append conflicts, and on the stream (1) it is refused.
      await expect(handleCommand(store, account, stream, { type: 'Withdraw', amount: 3 }, ctx(), { cache: here })).rejects.toMatchObject({
        kind: 'illegal_state',
      });
      expect(here.get(stream)).toBeUndefined();
      const out = await handleCommand(store, account, stream, { type: 'Withdraw', amount: 1 }, ctx(), { cache: here });
      expect(out.events.map((e) => e.version)).toEqual([2]);
      expect(here.get(stream)).toEqual({ version: 2, state: { balance: 0 } });
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['Deposited', 'Withdrawn', 'Withdrawn']);
    });

    it('when a command is sent again with its id, then it answers its first outcome and lands once', async () => {
      const stream = `account-${randomUUID()}`;
      const cache = new StateCache<{ balance: number }>();
      await handleCommand(store, account, stream, { type: 'Deposit', amount: 1 }, ctx(), { cache });
      const c = ctx();
      const first = await handleCommand(store, account, stream, { type: 'Deposit', amount: 2 }, c, { cache });
      const again = await handleCommand(store, account, stream, { type: 'Deposit', amount: 2 }, c, { cache });
      expect(again).toMatchObject({ alreadyDone: true, position: first.position });
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('when writers in one process race on a kept stream, then each re-decides on the new state and the invariant holds', async () => {
      const stream = `account-${randomUUID()}`;
      const cache = new StateCache<{ balance: number }>();
      await handleCommand(store, account, stream, { type: 'Deposit', amount: 5 }, ctx(), { cache });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () =>
          handleCommand(store, account, stream, { type: 'Withdraw', amount: 1 }, ctx(), { maxAttempts: 20, cache }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      expect((await store.readStream(stream)).filter((e) => e.type === 'Withdrawn')).toHaveLength(5);
      // The losers drop no entry newer than the state they decided on.
      expect(cache.get(stream)).toEqual({ version: 5, state: { balance: 0 } });
    });

    it('keeps at most its size, dropping the least recently used, never goes back to an earlier version, and forgets only what is no later than a lost decision', () => {
      const cache = new StateCache<number>(2);
      cache.set('a', 0, 1);
      cache.set('b', 0, 2);
      cache.get('a');
      cache.set('c', 0, 3);
      expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([{ version: 0, state: 1 }, undefined, { version: 0, state: 3 }]);
      cache.set('a', 3, 10);
      cache.set('a', 2, 9);
      expect(cache.get('a')).toEqual({ version: 3, state: 10 });
      expect(cache.size).toBe(2);
      // A command that lost on version 2 leaves version 3 kept; one that lost on 3 drops it.
      cache.forget('a', 2);
      expect(cache.get('a')).toEqual({ version: 3, state: 10 });
      cache.forget('a', 3);
      expect(cache.get('a')).toBeUndefined();
    });
  });
});
