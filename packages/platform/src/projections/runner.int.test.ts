import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessChangeFeed } from '../change-feed/in-process';
import type { ChangeNotice } from '../change-feed/port';
import { PostgresEventStore } from '../event-store/postgres';
import { withTransaction } from '../db/database';
import { migrate } from '../db/migrate';
import { createTestDatabase, storeWithSwapWindow, type TestDatabase } from '../testing';
import { ev } from '../testing/event-store-contract';
import {
  CHECKPOINT_MOVED,
  checkpointHealth,
  policyCheckpoint,
  projectionMigrations,
  projectionPositions,
  reachedCheckpoint,
  readCheckpoint,
  recordHandles,
  setCheckpoint,
  waitForCheckpoint,
} from './checkpoints';
import { ProjectionRunner } from './runner';
import type { Projection } from './types';

/** Counts events per stream and keeps the running sum of `n`: order-sensitive on purpose. */
const tally = (name: string, failOn?: { count: number }): Projection => ({
  name,
  schema: `rm_${name}`,
  setup: `create table tallies (stream_id text primary key, events int not null, total bigint not null, trail text not null)`,
  handlers: {
    Counted: async (e, { db, emit }) => {
      if (failOn && --failOn.count < 0) throw new Error('simulated crash in the middle of a batch');
      await db.query(
        `insert into tallies values ($1, 1, $2, $3) on conflict (stream_id) do update
         set events = tallies.events + 1, total = tallies.total + $2, trail = tallies.trail || ',' || $3`,
        [e.streamId, e.data.n, String(e.data.n)],
      );
      emit({ entity: 'user', op: 'remove', id: e.streamId }, ['all']);
    },
  },
});

describe('projection runner', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const feed = new InProcessChangeFeed();
  beforeAll(async () => {
    db = await createTestDatabase('proj');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 200 });
    for (let s = 0; s < 6; s++) {
      const stream = `tally-${s}`;
      for (let i = 0; i < 10; i++) await store.append(stream, [ev('Counted', { n: s * 100 + i }), ev('Ignored')], 'any');
    }
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });
  const rebuiltAt = async (name: string) =>
    Number((await db.pool.query(`select rebuilt_at from projection_checkpoints where name = $1`, [name])).rows[0]?.rebuilt_at);
  const rows = async (schema: string) =>
    (await db.pool.query(`select stream_id, events, total::int, trail from ${schema}.tallies order by stream_id`)).rows;

  it('when a projection starts with a changed table definition, then it rebuilds its tables from the log', async () => {
    const first = new ProjectionRunner(db.pool, store, feed, tally('upgraded'), { batchSize: 50 });
    await first.start();
    await first.caughtUp();
    await first.stop();
    const before = await rows('rm_upgraded');
    // Same again: the tables are kept (nothing replayed: the checkpoint stays where it was).
    await db.pool.query(`update rm_upgraded.tallies set trail = 'kept'`);
    const rebuiltNotices: ChangeNotice[] = [];
    const offNotices = feed.subscribe((n) => {
      if (n.kind === 'rebuilt' && n.projection === 'upgraded') rebuiltNotices.push(n);
    });
    const again = new ProjectionRunner(db.pool, store, feed, tally('upgraded'), { batchSize: 50 });
    await again.start();
    await again.caughtUp();
    await again.stop();
    expect(rebuiltNotices).toEqual([]);
    expect((await rows('rm_upgraded')).every((r) => r.trail === 'kept')).toBe(true);

    // A new column in the definition: the log is replayed into new tables beside the old ones,
    // which are read meanwhile as they were, and then take their place.
    const v2 = tally('upgraded');
    v2.setup = v2.setup.replace('trail text not null', "trail text not null, note text not null default 'v2'");
    const seenMeanwhile: number[] = [];
    const counted = v2.handlers.Counted!;
    v2.handlers.Counted = async (e, ctx) => {
      seenMeanwhile.push(Number((await ctx.db.query('select count(*) as n from rm_upgraded.tallies')).rows[0].n));
      await counted(e, ctx);
    };
    const upgraded = new ProjectionRunner(db.pool, store, feed, v2, { batchSize: 50 });
    await upgraded.start();
    await upgraded.caughtUp();
    await upgraded.stop();
    offNotices();
    // Its changes were not announced one by one: browsers are told to read their lists again, at
    // once and through the swap recorded with the checkpoint (ADR 0065).
    const head = await store.headPosition();
    expect(rebuiltNotices).toEqual([{ kind: 'rebuilt', projection: 'upgraded', position: head }]);
    expect(await rebuiltAt('upgraded')).toBe(head);
    expect(seenMeanwhile.length).toBe(60);
    expect(new Set(seenMeanwhile)).toEqual(new Set([before.length]));
    expect(await rows('rm_upgraded')).toEqual(before);
    expect((await db.pool.query(`select count(*)::int as n from pg_namespace where nspname like 'rm_upgraded__%'`)).rows[0].n).toBe(0);
    const notes = await db.pool.query<{ note: string }>('select distinct note from rm_upgraded.tallies');
    expect(notes.rows).toEqual([{ note: 'v2' }]);
  });

  it('when an upgrade and a rebuild from the tool fill the new tables at once, then they take turns and the rows are right', async () => {
    const first = new ProjectionRunner(db.pool, store, feed, tally('turns'), { batchSize: 50 });
    await first.start();
    await first.caughtUp();
    await first.stop();
    const before = await rows('rm_turns');
    const v2 = tally('turns');
    v2.setup = v2.setup.replace('trail text not null', "trail text not null, note text not null default 'v2'");
    // The tool's runner stands by (the upgrade's leads) and rebuilds; both fill rm_turns__rebuild.
    const upgraded = new ProjectionRunner(db.pool, store, feed, v2, { batchSize: 50, bulkSize: 7 });
    const tool = new ProjectionRunner(db.pool, store, feed, v2, { batchSize: 50, bulkSize: 7 });
    await Promise.all([upgraded.start().then(() => upgraded.caughtUp()), tool.rebuild()]);
    await upgraded.stop();
    expect(await rows('rm_turns')).toEqual(before);
    expect((await db.pool.query<{ note: string }>('select distinct note from rm_turns.tallies')).rows).toEqual([{ note: 'v2' }]);
    expect((await db.pool.query(`select count(*)::int as n from pg_namespace where nspname like 'rm_turns__%'`)).rows[0].n).toBe(0);
  });

  it('when a projection is killed between batches and restarted, then it ends with the same rows as an uninterrupted run', async () => {
    const straight = new ProjectionRunner(db.pool, store, feed, tally('straight'), { batchSize: 7 });
    await straight.start();
    await straight.caughtUp();
    await straight.stop();

    // The first run dies inside its 4th batch: that batch's rows and checkpoint roll back together.
    const crashing = new ProjectionRunner(db.pool, store, feed, tally('crashy', { count: 3 * 7 + 2 }), { batchSize: 7 });
    await crashing.start();
    await expect.poll(async () => (await crashing.status()).error, { timeout: 5000 }).toMatch(/simulated crash/);
    await crashing.stop();
    const checkpoint = (await db.pool.query(`select position from projection_checkpoints where name = 'crashy'`)).rows[0].position;
    expect(Number(checkpoint)).toBeGreaterThan(0);
    expect(Number(checkpoint)).toBeLessThan(await store.headPosition());

    const restarted = new ProjectionRunner(db.pool, store, feed, tally('crashy'), { batchSize: 7 });
    await restarted.start();
    await restarted.caughtUp();
    await restarted.stop();
    expect(await rows('rm_crashy')).toEqual(await rows('rm_straight'));
    expect((await rows('rm_straight'))[0]).toEqual({ stream_id: 'tally-0', events: 10, total: 45, trail: '0,1,2,3,4,5,6,7,8,9' });
  });

  it('when the projection runs live, then it reports lag and publishes each change and checkpoint after commit', async () => {
    const notices: ChangeNotice[] = [];
    const off = feed.subscribe((n) => notices.push(n));
    const runner = new ProjectionRunner(db.pool, store, feed, tally('live'), { batchSize: 50 });
    await runner.start();
    await runner.caughtUp();
    expect(await runner.status()).toMatchObject({ name: 'live', lag: 0, error: null });
    const { position } = await store.append(`tally-${randomUUID()}`, [ev('Counted', { n: 5 })], 'no_stream');
    await expect.poll(() => notices.some((n) => n.kind === 'checkpoint' && n.projection === 'live' && n.position >= position)).toBe(true);
    expect(notices.find((n) => n.kind === 'change' && n.push.position === position)).toBeDefined();
    off();
    await runner.stop();
  });

  it('when a runner dies after its commit and before announcing, then the next one announces the changes of that batch at its start', async () => {
    const runner = new ProjectionRunner(db.pool, store, feed, tally('announced'), { batchSize: 50 });
    await runner.start();
    await runner.caughtUp();
    const stream = `tally-${randomUUID()}`;
    const { position } = await store.append(stream, [ev('Counted', { n: 7 })], 'no_stream');
    await runner.caughtUp();
    await runner.stop();
    // As if the announcement was lost with the process: only a new runner can still tell.
    const notices: ChangeNotice[] = [];
    const off = feed.subscribe((n) => notices.push(n));
    const next = new ProjectionRunner(db.pool, store, feed, tally('announced'), { batchSize: 50 });
    await next.start();
    expect(notices.filter((n) => n.kind === 'change').map((n) => n.kind === 'change' && n.push)).toEqual([
      expect.objectContaining({ id: stream, position }),
    ]);
    off();
    await next.stop();
  });

  it('when the last batch announced nothing, then a runner starting after it announces nothing again', async () => {
    const runner = new ProjectionRunner(db.pool, store, feed, tally('quiet'), { batchSize: 50 });
    await runner.start();
    await runner.caughtUp();
    await store.append(`tally-${randomUUID()}`, [ev('Counted', { n: 1 })], 'no_stream');
    await runner.caughtUp();
    // A batch of events the projection has nothing to do for: it announces nothing.
    await store.append(`other-${randomUUID()}`, [ev('Ignored')], 'no_stream');
    await runner.caughtUp();
    await runner.stop();
    const notices: ChangeNotice[] = [];
    const off = feed.subscribe((n) => notices.push(n));
    const next = new ProjectionRunner(db.pool, store, feed, tally('quiet'), { batchSize: 50 });
    await next.start();
    expect(notices.filter((n) => n.kind === 'change')).toEqual([]);
    off();
    await next.stop();
  });

  /**
   * A live runner of `tally(name)`, caught up, then given events it has no handler for: answers
   * once it has announced their last position (`position`), with everything announced since.
   */
  const afterQuietBatch = async (name: string, ignored: number) => {
    const runner = new ProjectionRunner(db.pool, store, feed, tally(name), { batchSize: 50 });
    await runner.start();
    await runner.caughtUp();
    const notices: ChangeNotice[] = [];
    const off = feed.subscribe((n) => notices.push(n));
    const events = Array.from({ length: ignored }, () => ev('Ignored'));
    const { position } = await store.append(`other-${randomUUID()}`, events, 'no_stream');
    await expect.poll(() => notices.some((n) => n.kind === 'checkpoint' && n.projection === name && n.position >= position)).toBe(true);
    return { runner, notices, off, position };
  };

  it('when a batch has nothing for the projection, then its checkpoint is announced at once and stored a moment later, with no change announced', async () => {
    const { runner, notices, off, position } = await afterQuietBatch('idle', 1);
    expect(notices.filter((n) => n.kind === 'change')).toEqual([]);
    await expect.poll(() => readCheckpoint(db.pool, 'idle'), { timeout: 5000 }).toBe(position);
    // Then a batch with something for it moves the stored checkpoint on from there as usual.
    const counted = await store.append(`tally-${randomUUID()}`, [ev('Counted', { n: 3 })], 'no_stream');
    await runner.caughtUp();
    expect(await readCheckpoint(db.pool, 'idle')).toBe(counted.position);
    off();
    await runner.stop();
  });

  it('when a runner stops right after batches with nothing for it, then what they reached is stored before it lets go', async () => {
    const { runner, off, position } = await afterQuietBatch('idle_stop', 2);
    off();
    await runner.stop();
    expect(await readCheckpoint(db.pool, 'idle_stop')).toBe(position);
  });

  it('when the checkpoint is stored behind events the projection does not handle, then the database tells how far its read model really is', async () => {
    const runner = new ProjectionRunner(db.pool, store, feed, tally('reach'), { batchSize: 50 });
    await runner.start();
    await runner.caughtUp();
    await runner.stop();
    const stored = await readCheckpoint(db.pool, 'reach');
    expect(stored).toBe(await store.headPosition());
    // Nobody runs it now: what follows is stored nowhere.
    const ignored = await store.append(`other-${randomUUID()}`, [ev('Ignored'), ev('Ignored')], 'no_stream');
    expect(await readCheckpoint(db.pool, 'reach')).toBe(stored);
    expect(await reachedCheckpoint(db.pool, 'reach')).toBe(ignored.position);
    const counted = await store.append(`tally-${randomUUID()}`, [ev('Counted', { n: 1 })], 'no_stream');
    await store.append(`other-${randomUUID()}`, [ev('Ignored')], 'no_stream');
    // Up to just before the first event it handles, whatever follows.
    expect(await reachedCheckpoint(db.pool, 'reach')).toBe(counted.position - 1);
    expect((await projectionPositions(db.pool)).reach).toBe(counted.position - 1);
    const health = await checkpointHealth(db.pool);
    expect(health.find((r) => r.name === 'reach')?.position).toBe(String(counted.position - 1));
    await waitForCheckpoint(db.pool, 'reach', counted.position - 1, 100);
    await expect(waitForCheckpoint(db.pool, 'reach', counted.position, 120)).rejects.toThrow(/did not reach/);
    // A policy's checkpoint (no handled types recorded) is only ever its stored position.
    await setCheckpoint(db.pool, policyCheckpoint('reach'), stored);
    expect(await reachedCheckpoint(db.pool, policyCheckpoint('reach'))).toBe(stored);
    // A checkpoint never moves back.
    for (const fn of ['advance_checkpoint', 'move_checkpoint']) {
      await expect(db.pool.query(`select public.${fn}('reach', $1, $2)`, [stored, stored - 1])).rejects.toMatchObject({
        code: CHECKPOINT_MOVED,
      });
    }
    expect(await readCheckpoint(db.pool, 'reach')).toBe(stored);
    // It looks at most 10,000 positions past the stored one: still true, and bounded however far behind.
    const many = await store.append(
      `other-${randomUUID()}`,
      Array.from({ length: 10_005 }, () => ev('Ignored')),
      'no_stream',
    );
    await db.pool.query(`select public.advance_checkpoint('reach', $1, $2)`, [stored, counted.position]);
    expect(await reachedCheckpoint(db.pool, 'reach')).toBe(counted.position + 10_000);
    expect(many.position).toBeGreaterThan(counted.position + 10_000);
    // Moved or set by anything that does not know its handles (an earlier version's move, a
    // reset), the answer is the stored position until its runner records them again.
    await db.pool.query(`select public.move_checkpoint('reach', $1, $2)`, [counted.position, counted.position + 1]);
    expect(await reachedCheckpoint(db.pool, 'reach')).toBe(counted.position + 1);
    await recordHandles(db.pool, 'reach', ['Counted']);
    expect(await reachedCheckpoint(db.pool, 'reach')).toBe(counted.position + 10_001);
    await setCheckpoint(db.pool, 'reach', 0);
    expect(await reachedCheckpoint(db.pool, 'reach')).toBe(0);
  });

  it('when two runners host the same projection, then one leads, the other stands by and takes over when the leader stops', async () => {
    const first = new ProjectionRunner(db.pool, store, feed, tally('shared'), { standbyRetryMs: 50 });
    const second = new ProjectionRunner(db.pool, store, feed, tally('shared'), { standbyRetryMs: 50 });
    await first.start();
    await second.start();
    expect((await first.status()).role).toBe('leader');
    expect((await second.status()).role).toBe('standby');
    await first.caughtUp();
    await first.stop();
    await expect.poll(async () => (await second.status()).role, { timeout: 5000 }).toBe('leader');
    const { position } = await store.append(`tally-${randomUUID()}`, [ev('Counted', { n: 1 })], 'no_stream');
    await expect.poll(async () => (await second.status()).position, { timeout: 5000 }).toBeGreaterThanOrEqual(position);
    const counted = Number((await db.pool.query(`select count(*) as n from es.events where type = 'Counted'`)).rows[0].n);
    expect((await rows('rm_shared')).reduce((n, r) => n + r.events, 0)).toBe(counted);
    await second.stop();
  });

  it('when the checkpoint is moved back beneath what it applied (a swap elsewhere), then the events between are applied again, none passed over', async () => {
    const runner = new ProjectionRunner(db.pool, store, feed, tally('moved_back'), { batchSize: 7 });
    await runner.start();
    await runner.caughtUp();
    const before = await rows('rm_moved_back');
    // Tables as of position 0 with their checkpoint, in one transaction: what a rebuild's swap in
    // another process leaves when it read the log before this runner's last batches.
    await withTransaction(db.pool, async (client) => {
      await client.query('delete from rm_moved_back.tallies');
      await setCheckpoint(client, 'moved_back', 0);
    });
    const { position } = await store.append('tally-after-move', [ev('Counted', { n: 5 })], 'no_stream');
    await expect.poll(async () => readCheckpoint(db.pool, 'moved_back'), { timeout: 10_000 }).toBeGreaterThanOrEqual(position);
    const after = await rows('rm_moved_back');
    expect(after.filter((r) => r.stream_id !== 'tally-after-move')).toEqual(before);
    expect(after.find((r) => r.stream_id === 'tally-after-move')?.events).toBe(1);
    await runner.stop();
  });

  it('when the checkpoint is moved back while only quiet batches came, then the events between are applied without waiting for another event', async () => {
    // The quiet batch's checkpoint is stored a second later, after the move below.
    const runner = new ProjectionRunner(db.pool, store, feed, tally('moved_quiet'), { batchSize: 7, quietStoreMs: 1000 });
    await runner.start();
    await runner.caughtUp();
    const before = await rows('rm_moved_quiet');
    // A batch with nothing for it: announced at once, its checkpoint stored a moment later.
    await store.append(`tally-quiet-${randomUUID()}`, [ev('Ignored')], 'no_stream');
    await runner.caughtUp();
    await withTransaction(db.pool, async (client) => {
      await client.query('delete from rm_moved_quiet.tallies');
      await setCheckpoint(client, 'moved_quiet', 0);
    });
    // Nothing more is appended: the delayed store finds the moved checkpoint and applies the gap.
    await expect.poll(async () => rows('rm_moved_quiet'), { timeout: 10_000 }).toEqual(before);
    await expect.poll(async () => readCheckpoint(db.pool, 'moved_quiet'), { timeout: 10_000 }).toBe(await store.headPosition());
    await runner.caughtUp();
    await runner.stop();
  });

  it('when the tool rebuilds beside a leader that applies a batch just before the swap, then the swap takes that batch too and the checkpoint never goes back', async () => {
    const leader = new ProjectionRunner(db.pool, store, feed, tally('beside'), { standbyRetryMs: 50 });
    await leader.start();
    await leader.caughtUp();
    // The tool's runner reads the log through a store that, once the swap's tail has been read,
    // appends an event and waits for the leader to apply it: the window a live batch can commit in.
    let late = 0;
    const toolStore = storeWithSwapWindow(store, {
      afterTail: async () => {
        late = (await store.append('tally-in-window', [ev('Counted', { n: 9 })], 'no_stream')).position;
        await expect.poll(async () => readCheckpoint(db.pool, 'beside'), { timeout: 10_000 }).toBeGreaterThanOrEqual(late);
      },
    });
    // The tool runs in a process of its own: what it announces does not reach the shop's feed.
    const tool = new ProjectionRunner(db.pool, toolStore, new InProcessChangeFeed(), tally('beside'), { standbyRetryMs: 50 });
    await tool.start();
    expect((await tool.status()).role).toBe('standby');
    const { position } = await tool.rebuild();
    expect(late).toBeGreaterThan(0);
    expect(position).toBeGreaterThanOrEqual(late);
    expect(await readCheckpoint(db.pool, 'beside')).toBeGreaterThanOrEqual(late);
    expect((await rows('rm_beside')).find((r) => r.stream_id === 'tally-in-window')?.events).toBe(1);
    // The swap is recorded with it, for the shop's gateways to find (ADR 0065).
    expect(await rebuiltAt('beside')).toBe(position);
    // And the leader goes on from there on the swapped-in tables.
    const next = await store.append('tally-after-swap', [ev('Counted', { n: 3 })], 'no_stream');
    await expect.poll(async () => readCheckpoint(db.pool, 'beside'), { timeout: 10_000 }).toBeGreaterThanOrEqual(next.position);
    const counted = await db.pool.query<{ stream_id: string; n: string }>(
      `select stream_id, count(*) as n from es.events where type = 'Counted' group by stream_id`,
    );
    const byStream = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    const now = (await rows('rm_beside')).map((r): [string, number] => [r.stream_id, r.events]);
    expect(now.sort(byStream)).toEqual(counted.rows.map((r): [string, number] => [r.stream_id, Number(r.n)]).sort(byStream));
    await tool.stop();
    await leader.stop();
  });

  it('when a projection is rebuilt from position 0, then fresh tables are swapped in with the same rows while it keeps running', async () => {
    const runner = new ProjectionRunner(db.pool, store, feed, tally('rebuilt'), { batchSize: 13 });
    await runner.start();
    await runner.caughtUp();
    const before = await rows('rm_rebuilt');
    await db.pool.query(`update rm_rebuilt.tallies set total = -1`); // damage the read model
    const rebuilding = runner.rebuild();
    await store.append('tally-late', [ev('Counted', { n: 7 })], 'any');
    const { position } = await rebuilding;
    await runner.caughtUp();
    expect(position).toBeGreaterThan(0);
    const after = await rows('rm_rebuilt');
    expect(after.filter((r) => r.stream_id !== 'tally-late')).toEqual(before.filter((r) => r.stream_id !== 'tally-late'));
    expect(after.find((r) => r.stream_id === 'tally-late')?.events).toBe(1);
    const schemas = await db.pool.query(`select nspname from pg_namespace where nspname like 'rm_rebuilt%'`);
    expect(schemas.rows.map((r) => r.nspname)).toEqual(['rm_rebuilt']);
    await runner.stop();
  });
});
