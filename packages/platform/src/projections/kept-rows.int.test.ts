import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessChangeFeed } from '../change-feed/in-process';
import { PostgresEventStore } from '../event-store/postgres';
import { migrate } from '../db/migrate';
import { createTestDatabase, storeWithSwapWindow, type TestDatabase } from '../testing';
import { ev } from '../testing/event-store-contract';
import { projectionMigrations, readCheckpoint, setCheckpoint } from './checkpoints';
import { RowSet } from './row-set';
import { ProjectionRunner } from './runner';
import type { Projection } from './types';

interface Tally {
  stream_id: string;
  events: number;
  total: number;
}

/**
 * A batch form that keeps its rows between live batches (ADR 0052): per stream, how many Counted
 * events and the sum of their `n`. `reads` records, for each batch, the keys it had to read from
 * the table; `failAfterSave` throws once its writes are planned (and its rows kept).
 */
const keptTally = (name: string, reads: string[][], failAfterSave?: { count: number }): Projection => ({
  name,
  schema: `rm_${name}`,
  setup: `create table tallies (stream_id text primary key, events int not null, total bigint not null)`,
  handlers: {
    Counted: async (e, { db }) => {
      await db.query(
        `insert into tallies values ($1, 1, $2) on conflict (stream_id) do update
         set events = tallies.events + 1, total = tallies.total + $2`,
        [e.streamId, e.data.n],
      );
    },
  },
  applyBatch: async (events, ctx) => {
    const tallies = new RowSet<Tally>('tallies', ['stream_id'], ctx.kept);
    const counted = events.filter((e) => e.type === 'Counted');
    const load = tallies.byKeys(
      't.stream_id = any($1)',
      counted.map((e) => e.streamId),
    );
    if (!ctx.replaying) reads.push([...(load[2][0] as string[])]);
    await RowSet.loadTogether(ctx.db, [load]);
    for (const e of counted) {
      const n = (e.data as { n: number }).n;
      const t = tallies.get(e.streamId);
      if (t) tallies.update(e.streamId, { events: t.events + 1, total: t.total + n });
      else tallies.insert({ stream_id: e.streamId, events: 1, total: n });
    }
    tallies.save(ctx);
    if (failAfterSave && failAfterSave.count-- > 0) throw new Error('simulated failure after the rows were kept');
  },
});

describe('rows kept between live batches (ADR 0052)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const feed = new InProcessChangeFeed();
  beforeAll(async () => {
    db = await createTestDatabase('kept');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });
  /** The rows of the streams named `<prefix>-...` (each test's own; every runner applies the whole log). */
  const tallies = async (name: string, prefix: string) =>
    (
      await db.pool.query<Tally>(
        `select stream_id, events, total::int as total from rm_${name}.tallies where stream_id like $1 order by stream_id`,
        [`${prefix}-%`],
      )
    ).rows;
  /** A stream's total changed by hand in the projection's table, as no batch would. */
  const setTotalByHand = (name: string, stream: string, total: number) =>
    db.pool.query(`update rm_${name}.tallies set total = $1 where stream_id = $2`, [total, stream]);
  /**
   * A wrong row (damaged by hand while the runner did not lead: total 900 on `stream`'s first
   * event), read and kept by the runner's next batch: the stream's total is then 901.
   */
  const keepDamagedRow = async (runner: ProjectionRunner, name: string, stream: string) => {
    await count(runner, stream, 1);
    await runner.stop();
    await setTotalByHand(name, stream, 900);
    await runner.start();
    await count(runner, stream, 1);
  };
  /** Appends and waits until the runner has applied it. */
  const count = async (runner: ProjectionRunner, stream: string, n: number) => {
    await store.append(stream, [ev('Counted', { n })], 'any');
    await runner.caughtUp();
  };

  it('when a live batch touches rows an earlier batch read or wrote, then it takes them from memory and reads only the others', async () => {
    const reads: string[][] = [];
    const runner = new ProjectionRunner(db.pool, store, feed, keptTally('kept_reads', reads));
    await runner.start();
    try {
      await count(runner, 'kr-a', 1);
      await count(runner, 'kr-a', 2);
      await count(runner, 'kr-b', 3);
      await count(runner, 'kr-a', 4);
      await count(runner, 'kr-b', 5);
      // Only the first batch of each stream asks the table.
      expect(reads).toEqual([['kr-a'], [], ['kr-b'], [], []]);
      expect(await tallies('kept_reads', 'kr')).toEqual([
        { stream_id: 'kr-a', events: 3, total: 7 },
        { stream_id: 'kr-b', events: 2, total: 8 },
      ]);
      // And the tables are what a replay through the handlers makes.
      const replay = await new ProjectionRunner(db.pool, store, feed, keptTally('kept_reads', []), { bulk: false }).verify();
      expect(replay.differences).toEqual([]);
    } finally {
      await runner.stop();
    }
  });

  it('when a batch fails after keeping its rows, then they are forgotten and its retry counts from the table', async () => {
    const reads: string[][] = [];
    const fail = { count: 0 };
    const runner = new ProjectionRunner(db.pool, store, feed, keptTally('kept_failed', reads, fail));
    await runner.start();
    try {
      await count(runner, 'kf-a', 10);
      fail.count = 1;
      await count(runner, 'kf-a', 5);
      // Rolled back once, then applied once: the first attempt's kept 15 is not counted on.
      expect(await tallies('kept_failed', 'kf')).toEqual([{ stream_id: 'kf-a', events: 2, total: 15 }]);
      expect(reads.slice(-2)).toEqual([[], ['kf-a']]);
    } finally {
      await runner.stop();
    }
  });

  it('when the checkpoint was moved elsewhere with the tables changed, then the runner forgets what it kept and reads them again', async () => {
    const reads: string[][] = [];
    const name = 'kept_moved';
    const runner = new ProjectionRunner(db.pool, store, feed, keptTally(name, reads));
    await runner.start();
    try {
      await count(runner, 'km-a', 1);
      await count(runner, 'km-a', 1);
      // Someone else (an operator's rebuild, another leader) changed the table and the checkpoint.
      const at = await readCheckpoint(db.pool, name);
      await setTotalByHand(name, 'km-a', 1000);
      await setCheckpoint(db.pool, name, at - 1);
      await store.append('km-a', [ev('Counted', { n: 5 })], 'any');
      // The tables are as of the moved checkpoint: the event after it (n: 1) is applied again on
      // them, then the new one.
      await expect.poll(async () => (await tallies(name, 'km'))[0]?.total, { timeout: 10_000 }).toBe(1006);
      // The batch applied again reads the row from the table; the new one takes it from there.
      expect(reads.slice(-2)).toEqual([['km-a'], []]);
    } finally {
      await runner.stop();
    }
  });

  it('when the same runner leads again, then it forgets what it kept before: the tables may have changed meanwhile', async () => {
    const reads: string[][] = [];
    const name = 'kept_again';
    const runner = new ProjectionRunner(db.pool, store, feed, keptTally(name, reads));
    await runner.start();
    try {
      await count(runner, 'ka-a', 1);
      await runner.stop();
      // Changed while it did not lead (a repair by hand, say).
      await setTotalByHand(name, 'ka-a', 1000);
      await runner.start();
      await count(runner, 'ka-a', 5);
      expect(await tallies(name, 'ka')).toEqual([{ stream_id: 'ka-a', events: 2, total: 1005 }]);
    } finally {
      await runner.stop();
    }
  });

  it('when a rebuild elsewhere swaps in tables at the position the runner had stored, then its next batch reads the new tables', async () => {
    const reads: string[][] = [];
    const name = 'kept_rebuilt';
    const runner = new ProjectionRunner(db.pool, store, feed, keptTally(name, reads));
    await runner.start();
    try {
      await keepDamagedRow(runner, name, 'kb-a');
      expect(await tallies(name, 'kb')).toEqual([{ stream_id: 'kb-a', events: 2, total: 901 }]);
      // The operator's repair: a rebuild from the log in another process, swapped in at the head,
      // which is where the runner's checkpoint is, so the guarded move alone would not notice.
      const stored = await readCheckpoint(db.pool, name);
      const { position } = await new ProjectionRunner(db.pool, store, new InProcessChangeFeed(), keptTally(name, [])).rebuild();
      expect(position).toBe(stored);
      expect(await tallies(name, 'kb')).toEqual([{ stream_id: 'kb-a', events: 2, total: 2 }]);
      await store.append('kb-a', [ev('Counted', { n: 5 })], 'any');
      await expect.poll(async () => (await tallies(name, 'kb'))[0]?.total, { timeout: 10_000 }).toBe(7);
      expect(reads.at(-1)).toEqual(['kb-a']);
    } finally {
      await runner.stop();
    }
  });

  it('when a live batch waits on the checkpoint a swap holds, then once the swap commits it reads the new tables, not what it kept', async () => {
    const reads: string[][] = [];
    const name = 'kept_waited';
    const failures: string[] = [];
    const runner = new ProjectionRunner(db.pool, store, feed, keptTally(name, reads), {
      log: (message, extra) => failures.push(`${message} ${JSON.stringify(extra)}`),
    });
    await runner.start();
    try {
      await keepDamagedRow(runner, name, 'kw-a');
      expect(await tallies(name, 'kw')).toEqual([{ stream_id: 'kw-a', events: 2, total: 901 }]);

      // The operator's repair, in another process. Once it has read the log's tail, the runner
      // applies another stream's event (so the swap has a batch to take in, under the checkpoint's
      // lock); while the swap reads that event, inside its transaction, an event of the damaged
      // stream arrives and the runner's batch for it waits on the checkpoint's row.
      let inSwap = 0;
      const toolStore = storeWithSwapWindow(store, {
        afterTail: async () => {
          const late = await store.append('kw-b', [ev('Counted', { n: 1 })], 'any');
          await expect.poll(async () => readCheckpoint(db.pool, name), { timeout: 10_000 }).toBeGreaterThanOrEqual(late.position);
        },
        inSwap: async () => {
          if (++inSwap > 1) return;
          await store.append('kw-a', [ev('Counted', { n: 5 })], 'any');
          const waiting = async () =>
            (await db.pool.query(`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))
              .rowCount;
          await expect.poll(waiting, { timeout: 10_000 }).toBeGreaterThan(0);
        },
      });
      await new ProjectionRunner(db.pool, toolStore, new InProcessChangeFeed(), keptTally(name, [])).rebuild();
      expect(inSwap).toBe(1);
      // The repaired row, and the waiting batch applied on it: 1 + 1 + 5, not 901 + 5. Its move of
      // the checkpoint passed (the swap left it where the runner had it); its schema check (TV002) did not.
      await expect
        .poll(async () => (await tallies(name, 'kw')).find((t) => t.stream_id === 'kw-a'), { timeout: 10_000 })
        .toEqual({ stream_id: 'kw-a', events: 3, total: 7 });
      expect(failures.filter((f) => f.includes('swapped in elsewhere'))).toHaveLength(1);
      const replay = await new ProjectionRunner(db.pool, store, feed, keptTally(name, []), { bulk: false }).verify();
      expect(replay.differences).toEqual([]);
    } finally {
      await runner.stop();
    }
  });

  it('when nobody waits for a read model, then a live batch starts at least gatherMs after the one before, and a lone event waits for nothing', async () => {
    const applied: { at: number; events: number }[] = [];
    const projection = keptTally('kept_gathered', []);
    const batchForm = projection.applyBatch!;
    projection.awaited = false;
    projection.applyBatch = async (events, ctx) => {
      if (!ctx.replaying) applied.push({ at: performance.now(), events: events.length });
      await batchForm(events, ctx);
    };
    const runner = new ProjectionRunner(db.pool, store, feed, projection, { gatherMs: 1000 });
    await runner.start();
    try {
      await runner.caughtUp();
      // A first live batch reads the schema and may open a connection before it applies, which
      // would shorten the measured gap below: one event (another stream) takes that cost first.
      await count(runner, 'kw-a', 1);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // After a quiet second: the event is applied at once, not a second later.
      const sent = performance.now();
      await count(runner, 'kg-a', 1);
      expect(applied.at(-1)!.at - sent).toBeLessThan(900);
      const first = applied.length;
      // Three more at once, then two: none of them before a second after the lone one's batch.
      await store.append('kg-a', [ev('Counted', { n: 1 })], 'any');
      await store.append('kg-a', [ev('Counted', { n: 1 })], 'any');
      await store.append('kg-a', [ev('Counted', { n: 1 })], 'any');
      await runner.caughtUp();
      const later = applied.slice(first);
      expect(later.length).toBeGreaterThan(0);
      // Stamped as each batch is applied, a moment after it was taken: a little under the second.
      expect(later[0]!.at - applied[first - 1]!.at).toBeGreaterThanOrEqual(950);
      expect(later.reduce((n, b) => n + b.events, 0)).toBe(3);
      expect(await tallies('kept_gathered', 'kg')).toEqual([{ stream_id: 'kg-a', events: 4, total: 4 }]);
    } finally {
      await runner.stop();
    }
  });
});
