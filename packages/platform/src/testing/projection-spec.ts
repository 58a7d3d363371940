import { expect } from 'vitest';
import type pg from 'pg';
import { withTransaction } from '../db/database';
import type { EventMetadata, RecordedEvent } from '../event-store/types';
import { migrate } from '../db/migrate';
import { projectionMigrations } from '../projections/checkpoints';
import { KeptRows } from '../projections/kept-rows';
import type { Projection, ProjectionContext } from '../projections/types';

/** An event as a spec states it: its type and data, and when it happened if that matters. */
export interface GivenEvent {
  type: string;
  data: unknown;
  at?: string;
  streamId?: string;
}

/** A change a projection announced, with the position of the event that caused it and its rooms. */
export interface SpecPush {
  push: Parameters<ProjectionContext['emit']>[0] & { position: number };
  rooms: string[];
}

export interface SpecOutcome {
  /** Runs a query in the projection's tables (unqualified names, as its handlers write them). */
  rows(sql: string, params?: unknown[]): Promise<unknown[]>;
  /** What the `when` events announced, in order. */
  pushes: SpecPush[];
}

export interface SpecExpectation {
  /** Each query (run in the projection's tables) and the rows it must return. */
  rows?: Record<string, unknown[]>;
  /** Every change the `when` events announced, in order. */
  pushes?: SpecPush[];
}

/**
 * given(events).when(events).then({ rows, pushes }) for a projection, against real PostgreSQL:
 * each spec makes a fresh schema from the projection's DDL, applies the `given` events and then
 * the `when` events one at a time (one transaction each, `search_path` on that schema) as the
 * runner applies a batch of one: through the projection's batch form when it has one (its
 * deferred writes last; the `when` events with the rows kept between them, ADR 0052), else its
 * handlers; and checks the rows that queries return and the changes the `when` events announced.
 * (The handlers are checked against the batch forms apart: `bulk-replay.int.test.ts`.) Positions
 * count from 1 over given and when events together; times default to one second apart from
 * 2025-01-01T00:00:00Z.
 */
export function projectionSpec(projection: Projection, pool: () => pg.Pool) {
  let specs = 0;
  // The functions the batch forms write with (public.insert_rows, ...), as a projector host has
  // them: made once per pool, not once per spec.
  const migrated = new WeakMap<pg.Pool, Promise<unknown>>();
  const run = async (given: GivenEvent[], when: GivenEvent[], together = false): Promise<SpecOutcome> => {
    const schema = `${projection.schema}_spec_${++specs}_${process.pid}`;
    const db = pool();
    if (!migrated.has(db)) migrated.set(db, migrate(db, 'projections', projectionMigrations));
    await migrated.get(db);
    await db.query(`drop schema if exists ${schema} cascade`);
    await db.query(`create schema ${schema}`);
    /** `fn` in a transaction of its own whose unqualified names are the spec's schema's. */
    const inSchema = <T>(fn: (client: pg.PoolClient) => Promise<T>) =>
      withTransaction(db, async (client) => {
        await client.query(`set local search_path to ${schema}, public`);
        return fn(client);
      });
    await inSchema((client) => client.query(projection.setup));
    const pushes: SpecPush[] = [];
    let position = 0;
    // As the leading runner keeps rows between live batches (ADR 0052): the `when` events share it.
    const kept = new KeptRows();
    /**
     * Events through the projection's batch form in the caller's transaction, its deferred writes
     * last. `record`: a live batch, its pushes kept and its rows kept for the next (ADR 0052);
     * else history nobody hears about, as in a replay.
     */
    const inBatch = async (
      client: pg.PoolClient,
      applyBatch: NonNullable<Projection['applyBatch']>,
      recorded: RecordedEvent[],
      record: boolean,
    ) => {
      const later: [text: string, params: readonly unknown[] | undefined][] = [];
      await applyBatch(recorded, {
        db: client,
        replaying: !record,
        emit: (change, rooms, at) => {
          if (record) pushes.push({ push: { ...change, position: at }, rooms });
        },
        later: (text, params) => void later.push([text, params]),
        ...(record ? { kept } : {}),
      });
      for (const [text, params] of later) await client.query(text, params ? [...params] : undefined);
    };
    // `together`: the `when` events as one live batch of the batch form (a catch-up's batch).
    const applyTogether = async (events: GivenEvent[]) => {
      const { applyBatch } = projection;
      if (!applyBatch) throw new Error(`projection ${projection.name} has no batch form to apply events together`);
      const recorded = events.map((e) => recordedEvent(e, ++position));
      await inSchema((client) => inBatch(client, applyBatch, recorded, true));
    };
    const apply = async (events: GivenEvent[], record: boolean) => {
      for (const e of events) {
        const recorded = recordedEvent(e, ++position);
        const handler = projection.handlers[e.type];
        const { everyEvent, applyBatch } = projection;
        if (!handler && !everyEvent) continue;
        await inSchema(async (client) => {
          if (applyBatch) return inBatch(client, applyBatch, [recorded], record);
          // The event's own handler, then the one for every event; the `given` events are history
          // nobody hears about, as in a replay.
          const emit: ProjectionContext['emit'] = (change, rooms) => {
            if (record) pushes.push({ push: { ...change, position: recorded.position }, rooms });
          };
          const ctx: ProjectionContext = { db: client, replaying: !record, emit };
          if (handler) await handler(recorded, ctx);
          if (everyEvent) await everyEvent(recorded, ctx);
        });
      }
    };
    await apply(given, false);
    await (together ? applyTogether(when) : apply(when, true));
    return {
      pushes,
      rows: async (sql, params = []) => (await inSchema((client) => client.query(sql, params))).rows,
    };
  };
  return (...given: GivenEvent[]) => ({
    when: (...when: GivenEvent[]) => ({
      /** The outcome, for checks that `then` cannot state. */
      outcome: () => run(given, when),
      then: async (expected: SpecExpectation) => {
        const outcome = await run(given, when);
        for (const [sql, rows] of Object.entries(expected.rows ?? {})) expect(await outcome.rows(sql), sql).toEqual(rows);
        if (expected.pushes) expect(outcome.pushes).toEqual(expected.pushes);
      },
    }),
    /** The `when` events applied as one live batch of the projection's batch form. */
    whenTogether: (...when: GivenEvent[]) => ({ outcome: () => run(given, when, true) }),
  });
}

const recordedEvent = (e: GivenEvent, position: number): RecordedEvent => {
  const at = e.at ?? new Date(Date.UTC(2025, 0, 1) + position * 1000).toISOString();
  const metadata: EventMetadata = { actorId: 'spec', actorRole: 'System', correlationId: `spec-${position}`, causationId: null, at };
  return {
    // UUID-shaped, as the store's are (a projection may keep it in a uuid column).
    eventId: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    streamId: e.streamId ?? 'spec-1',
    version: position - 1,
    position,
    type: e.type,
    schemaVersion: 1,
    data: e.data,
    metadata,
    recordedAt: at,
  };
};
