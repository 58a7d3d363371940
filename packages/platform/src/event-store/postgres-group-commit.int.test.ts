import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConcurrencyError, DuplicateEventError } from '../errors';
import { createTestDatabase, type TestDatabase } from '../testing';
import { ev } from '../testing/event-store-contract';
import { APPEND_LOCK, PostgresEventStore } from './postgres';
import type { AppendResult, NewEvent, RecordedEvent } from './types';

/** Group commit (ADR 0046): concurrent appends share one transaction, each with its own outcome. */
describe('PostgreSQL event store: group commit', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('esgroup');
    await PostgresEventStore.migrate(db.pool);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 5000 });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  /** How many transactions wrote the events after `from` (events of one transaction share xmin). */
  const transactionsAfter = async (from: number) =>
    Number((await db.pool.query(`select count(distinct xmin::text) as n from es.events where position > $1`, [from])).rows[0].n);

  /**
   * Appends issued in one go while a first append is committing: they wait and form the next
   * group together. The first one (its own group) is a version conflict so it takes no lock.
   */
  const inOneGroup = <T>(appends: () => T): { first: Promise<unknown>; rest: T } => {
    const first = store.append(`order-${randomUUID()}`, [ev()], 5).catch((e: unknown) => e);
    return { first, rest: appends() };
  };

  type QueryConfig = { name?: string; values?: unknown[] };
  type Query = (config: QueryConfig) => Promise<unknown>;
  /** Runs `use` with every query of the store's pool going through `spy`, which gets the real query to call on. */
  const throughSpy = async <T>(spy: (config: QueryConfig, query: Query) => Promise<unknown>, use: () => Promise<T>): Promise<T> => {
    const pool = db.pool as unknown as { query: Query };
    const query = db.pool.query.bind(db.pool) as Query;
    pool.query = (config) => spy(config, query);
    try {
      return await use();
    } finally {
      pool.query = query;
    }
  };

  it('when many appends to different streams run at once, then all land with gap-free positions and each caller gets its own events', async () => {
    const head = await store.headPosition();
    const sent = Array.from({ length: 120 }, (_, i) => ({
      stream: `order-${randomUUID()}`,
      events: Array.from({ length: 1 + (i % 3) }, (_, k) => ev('Placed', { i, k })),
    }));
    const results = await Promise.all(sent.map((s) => store.append(s.stream, s.events, 'no_stream')));
    const total = sent.reduce((n, s) => n + s.events.length, 0);

    results.forEach((res, i) => {
      const mine = sent[i]!;
      expect(res.events.map((e) => e.eventId)).toEqual(mine.events.map((e) => e.eventId));
      expect(res.events.every((e) => e.streamId === mine.stream)).toBe(true);
      expect(res.events.map((e) => e.version)).toEqual(mine.events.map((_, k) => k));
      expect(res.events.map((e) => e.data)).toEqual(mine.events.map((e) => e.data));
      expect(res.nextVersion).toBe(mine.events.length - 1);
      expect(res.position).toBe(res.events[res.events.length - 1]!.position);
      // One append's events are consecutive in the log.
      res.events.forEach((e, k) => expect(e.position).toBe(res.events[0]!.position + k));
    });
    const positions = results.flatMap((r) => r.events.map((e) => e.position)).sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: total }, (_, k) => head + 1 + k));
    const stored = await store.readAll(head, 10_000);
    expect(stored.map((e) => e.eventId)).toEqual(
      results
        .flatMap((r) => r.events)
        .sort((a, b) => a.position - b.position)
        .map((e) => e.eventId),
    );
    // They were grouped: far fewer transactions than appends.
    expect(await transactionsAfter(head)).toBeLessThan(sent.length / 2);
  });

  it('when appends to one stream with the same expected version share a group, then exactly one wins, the others conflict, and the other streams in the group still succeed', async () => {
    const contested = `order-${randomUUID()}`;
    await store.append(contested, [ev('Opened')], 'no_stream');
    const head = await store.headPosition();
    const others = Array.from({ length: 6 }, () => `order-${randomUUID()}`);
    const { first, rest } = inOneGroup(() => ({
      racers: Array.from({ length: 8 }, (_, r) => store.append(contested, [ev('Claimed', { r })], 0).catch((e: unknown) => e)),
      bystanders: others.map((s) => store.append(s, [ev('Placed'), ev('Paid')], 'no_stream')),
    }));
    await expect(first).resolves.toBeInstanceOf(ConcurrencyError);
    const outcomes = await Promise.all(rest.racers);
    const winners = outcomes.filter((o): o is AppendResult => !(o instanceof Error));
    const losers = outcomes.filter((o) => o instanceof Error);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.nextVersion).toBe(1);
    expect(losers).toHaveLength(7);
    for (const err of losers) {
      expect(err).toBeInstanceOf(ConcurrencyError);
      expect(err).toMatchObject({ kind: 'concurrency', status: 409, streamId: contested, expected: '0', actual: 1 });
    }
    const bystanders = await Promise.all(rest.bystanders);
    bystanders.forEach((res, i) => {
      expect(res.nextVersion).toBe(1);
      expect(res.events.every((e) => e.streamId === others[i])).toBe(true);
    });
    expect((await store.readStream(contested)).map((e) => [e.type, e.version])).toEqual([
      ['Opened', 0],
      ['Claimed', 1],
    ]);
    // All of it was one transaction, and its positions have no holes.
    expect(await transactionsAfter(head)).toBe(1);
    const stored = await store.readAll(head, 100);
    expect(stored.map((e) => e.position)).toEqual(Array.from({ length: 13 }, (_, k) => head + 1 + k));
  });

  it('when a grouped append repeats a stored event id, then only it fails as a duplicate (or a conflict if its version is wrong too) and writes nothing', async () => {
    const stored = ev('Stored');
    const home = `order-${randomUUID()}`;
    await store.append(home, [stored], 'no_stream');
    const dupStream = `order-${randomUUID()}`;
    const fine = `order-${randomUUID()}`;
    const { rest } = inOneGroup(() => ({
      duplicate: store.append(dupStream, [ev('New'), { ...stored }], 'no_stream').catch((e: unknown) => e),
      staleAndDuplicate: store.append(home, [{ ...stored }], 7).catch((e: unknown) => e),
      duplicateOnExisting: store.append(home, [{ ...stored }], 0).catch((e: unknown) => e),
      ok: store.append(fine, [ev('Fine')], 'no_stream'),
    }));
    const duplicate = await rest.duplicate;
    expect(duplicate).toBeInstanceOf(DuplicateEventError);
    expect(duplicate).toMatchObject({ eventId: stored.eventId, kind: 'conflict' });
    expect(await rest.staleAndDuplicate).toMatchObject({ kind: 'concurrency', actual: 0 });
    expect(await rest.duplicateOnExisting).toBeInstanceOf(DuplicateEventError);
    expect((await rest.ok).nextVersion).toBe(0);
    expect(await store.readStream(dupStream)).toEqual([]);
    expect((await store.readStream(home)).map((e) => e.eventId)).toEqual([stored.eventId]);
    // The failed append left no stream row behind: a fresh no_stream append still works.
    await expect(store.append(dupStream, [ev()], 'no_stream')).resolves.toMatchObject({ nextVersion: 0 });
  });

  it('when one group holds stored event ids beside a wrong version, new streams and two appends to one stream, then its statement fails and each append, sent again alone, gets its own outcome', async () => {
    const storedA = ev('StoredA');
    const storedB = ev('StoredB');
    const [a, b, c, d, e] = Array.from({ length: 5 }, () => `order-${randomUUID()}`);
    await store.append(a!, [storedA], 'no_stream');
    await store.append(b!, [storedB], 'no_stream');
    // Let the store finish that commit, so the first append below goes alone and the rest queue together.
    await new Promise((resolve) => setImmediate(resolve));
    const calls: { name: string | undefined; appends: number; failed: boolean }[] = [];
    const spy = (config: QueryConfig, query: Query) => {
      const call = {
        name: config.name,
        appends: config.name === 'es_append_groups' ? (JSON.parse(String(config.values![0])) as unknown[]).length : 1,
        failed: false,
      };
      calls.push(call);
      return query(config).catch((err: unknown) => {
        call.failed = true;
        throw err;
      });
    };
    await throughSpy(spy, async () => {
      const { first, rest } = inOneGroup(() => ({
        duplicateRightVersion: store.append(a!, [{ ...storedA }], 0).catch((err: unknown) => err),
        wrongVersion: store.append(b!, [ev('Late')], 5).catch((err: unknown) => err),
        fine: store.append(c!, [ev('Fine')], 'no_stream'),
        firstOfTwo: store.append(d!, [ev('D1')], 'no_stream'),
        secondOfTwo: store.append(d!, [ev('D2')], 0),
        duplicateAmongNew: store.append(e!, [ev('E'), { ...storedB }], 'no_stream').catch((err: unknown) => err),
      }));
      await expect(first).resolves.toBeInstanceOf(ConcurrencyError);
      expect(await rest.duplicateRightVersion).toMatchObject({ name: 'DuplicateEventError', eventId: storedA.eventId });
      expect(await rest.wrongVersion).toMatchObject({ kind: 'concurrency', streamId: b, expected: '5', actual: 0 });
      expect((await rest.fine).nextVersion).toBe(0);
      expect((await rest.firstOfTwo).nextVersion).toBe(0);
      expect((await rest.secondOfTwo).nextVersion).toBe(1);
      expect(await rest.duplicateAmongNew).toMatchObject({ name: 'DuplicateEventError', eventId: storedB.eventId });
    });
    // The six went as one group, whose statement failed on the stored ids; then each went alone.
    const group = calls.findIndex((call) => call.name === 'es_append_groups');
    expect(calls[group]).toEqual({ name: 'es_append_groups', appends: 6, failed: true });
    expect(calls.slice(group + 1).map((call) => call.name)).toEqual(Array.from({ length: 6 }, () => 'es_append_events'));
    expect((await store.readStream(a!)).map((x) => x.eventId)).toEqual([storedA.eventId]);
    expect((await store.readStream(b!)).map((x) => x.eventId)).toEqual([storedB.eventId]);
    expect((await store.readStream(c!)).map((x) => x.type)).toEqual(['Fine']);
    expect((await store.readStream(d!)).map((x) => [x.type, x.version])).toEqual([
      ['D1', 0],
      ['D2', 1],
    ]);
    expect(await store.readStream(e!)).toEqual([]);
  });

  it('when PostgreSQL rolls a group back because of another transaction (a deadlock), then each of its appends goes again alone and lands', async () => {
    await store.append(`order-${randomUUID()}`, [ev()], 'no_stream');
    await new Promise((resolve) => setImmediate(resolve));
    const streams = Array.from({ length: 4 }, () => `order-${randomUUID()}`);
    const sent: (string | undefined)[] = [];
    // The group's statement meets a deadlock once (as PostgreSQL reports one); everything else goes through.
    let refused = 0;
    const spy = async (config: QueryConfig, query: Query) => {
      sent.push(config.name);
      if (config.name === 'es_append_groups' && refused++ === 0)
        throw Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' });
      return query(config);
    };
    const results = await throughSpy(spy, async () => {
      const { first, rest } = inOneGroup(() => streams.map((s, i) => store.append(s, [ev('Placed', { i })], 'no_stream')));
      await expect(first).resolves.toBeInstanceOf(ConcurrencyError);
      return Promise.all(rest);
    });
    const group = sent.indexOf('es_append_groups');
    expect(group).toBeGreaterThanOrEqual(0);
    expect(sent.slice(group + 1, group + 5)).toEqual(['es_append_events', 'es_append_events', 'es_append_events', 'es_append_events']);
    results.forEach((r, i) => expect(r.events.map((e) => [e.streamId, e.version])).toEqual([[streams[i], 0]]));
    for (const s of streams) expect(await store.readStream(s)).toHaveLength(1);
  });

  it('when two concurrent appends carry the same new event id, then exactly one stores it and the other gets the duplicate error', async () => {
    const shared = ev('Once');
    const streams = [`order-${randomUUID()}`, `order-${randomUUID()}`];
    const { rest } = inOneGroup(() => streams.map((s) => store.append(s, [{ ...shared }], 'no_stream').catch((e: unknown) => e)));
    const outcomes = await Promise.all(rest);
    expect(outcomes.filter((o) => o instanceof DuplicateEventError)).toHaveLength(1);
    expect(outcomes.filter((o) => !(o instanceof Error))).toHaveLength(1);
    expect((await store.findEvent(shared.eventId))?.streamId).toBe(streams[outcomes.findIndex((o) => !(o instanceof Error))]);
  });

  it('when another writer stores a grouped event id while the group waits for the ordering lock, then each append gets the outcome it would have had alone', async () => {
    const raced = ev('Raced');
    const other = await db.pool.connect();
    try {
      // Another process's append, not committed yet: it holds the ordering lock, and its event is invisible.
      await other.query('begin');
      await other.query(`select * from es.append_events($1, 'no_stream', $2::jsonb, $3, 'es_events')`, [
        `order-${randomUUID()}`,
        JSON.stringify([{ ...raced, schemaVersion: 1 }]),
        APPEND_LOCK,
      ]);
      const a = `order-${randomUUID()}`;
      const b = `order-${randomUUID()}`;
      const { first, rest } = inOneGroup(() => [
        store.append(a, [ev('A')], 'no_stream'),
        store.append(b, [ev('B'), { ...raced }], 'no_stream').catch((e: unknown) => e),
      ]);
      await first;
      // The group has looked for stored ids (none yet) and waits for the lock.
      await expect
        .poll(
          async () =>
            (
              await db.pool.query(
                `select count(*)::int as n from pg_stat_activity where wait_event = 'advisory' and datname = current_database()`,
              )
            ).rows[0].n,
          { timeout: 5000, interval: 20 },
        )
        .toBe(1);
      await other.query('commit');
      const [okA, dupB] = await Promise.all(rest);
      expect(okA).toMatchObject({ nextVersion: 0 });
      expect(dupB).toBeInstanceOf(DuplicateEventError);
      expect(dupB).toMatchObject({ eventId: raced.eventId });
      expect((await store.readStream(a)).map((e) => e.type)).toEqual(['A']);
      expect(await store.readStream(b)).toEqual([]);
    } finally {
      await other.query('rollback').catch(() => {});
      other.release();
    }
  });

  it('when 16 writers append in groups, then a live subscriber and a poller reading by position never skip an event', async () => {
    const from = await store.headPosition();
    const live: RecordedEvent[] = [];
    const sub = store.subscribe({ from, batchSize: 5, onBatch: async (b) => void live.push(...b.events) });
    const polled: RecordedEvent[] = [];
    let writing = true;
    const poller = (async () => {
      // A reader by position: whatever it has seen up to N, nothing may later appear below N.
      for (let at = from; writing || polled.length === 0 || at < (await store.headPosition());) {
        const batch = await store.readAll(at, 13);
        polled.push(...batch);
        if (batch.length > 0) at = batch[batch.length - 1]!.position;
      }
    })();
    const shared = `order-${randomUUID()}`;
    await store.append(shared, [ev()], 'no_stream');
    await Promise.all(
      Array.from({ length: 16 }, async (_, w) => {
        for (let i = 0; i < 40; i++) {
          const events: NewEvent[] = Array.from({ length: 1 + ((w + i) % 3) }, () => ev('Written', { w, i }));
          if (i % 4 === 0) await store.append(shared, events, 'any');
          else await store.append(`order-${w}-${randomUUID()}`, events, 'no_stream');
        }
      }),
    );
    writing = false;
    await poller;
    const committed = await store.readAll(from, 100_000);
    await expect.poll(() => live.length, { timeout: 15_000, interval: 20 }).toBe(committed.length);
    await sub.stop();
    expect(live.map((e) => e.eventId)).toEqual(committed.map((e) => e.eventId));
    expect(polled.map((e) => e.eventId)).toEqual(committed.map((e) => e.eventId));
    expect((await store.readStream(shared)).map((e) => e.version)).toEqual(
      Array.from({ length: committed.filter((e) => e.streamId === shared).length }, (_, k) => k),
    );
    expect(await transactionsAfter(from)).toBeLessThan(16 * 40);
  });

  it('when grouping is off (maxGroupAppends 1), then every append is its own transaction', async () => {
    const alone = new PostgresEventStore(db.pool, { maxGroupAppends: 1 });
    const head = await store.headPosition();
    await Promise.all(Array.from({ length: 10 }, () => alone.append(`order-${randomUUID()}`, [ev()], 'no_stream')));
    expect(await transactionsAfter(head)).toBe(10);
    await alone.close();
  });
});
