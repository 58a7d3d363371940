import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, illegalState } from '../errors';
import { PostgresEventStore } from '../event-store/postgres';
import { createTestDatabase, type TestDatabase } from '../testing';
import type { Decider } from './decider';
import { handleCommand, type CommandContext } from './handler';

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
      const reads = { stream: 0, both: 0 };
      const counting = Object.assign(Object.create(store) as PostgresEventStore, {
        readStream: (...a: Parameters<PostgresEventStore['readStream']>) => (reads.stream++, store.readStream(...a)),
        readStreamAndEvent: (...a: Parameters<PostgresEventStore['readStreamAndEvent']>) => (reads.both++, store.readStreamAndEvent(...a)),
        append: (...a: Parameters<PostgresEventStore['append']>) => store.append(...a),
        findEvent: (...a: Parameters<PostgresEventStore['findEvent']>) => store.findEvent(...a),
      });
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
});
