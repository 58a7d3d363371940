import type pg from 'pg';
import { withClient } from '../db/database';
import type { Migration } from '../db/migrate';
import { quote, sqlPosition } from '../db/sql-text';

/**
 * The one place that reads and writes checkpoints: how far each projection and each policy has
 * got through the log (`public.projection_checkpoints`; a policy's name is `policy:<name>`).
 * Every consumer of the log, whatever delivers it (the store's subscription, Kafka), keeps its
 * position here, in the same transaction as its effects when it has any.
 */
/**
 * A guarded, forward-only checkpoint move (`name`, from, to), which also sets `alsoSet`: it fails
 * with TV001 (`CHECKPOINT_MOVED`) when the checkpoint is no longer at `from`, or `to` is behind it.
 */
const guardedMove = (name: string, alsoSet: string) =>
  `create or replace function public.${name}(checkpoint text, from_position bigint, to_position bigint) returns void language plpgsql as $fn$
      begin
        update public.projection_checkpoints set position = to_position, last_changes = null, ${alsoSet} updated_at = now()
         where name = checkpoint and position = from_position and to_position >= from_position;
        if not found then
          raise exception 'checkpoint % is no longer at %', checkpoint, from_position using errcode = 'TV001';
        end if;
      end $fn$;`;

export const projectionMigrations: Migration[] = [
  {
    id: '0001-checkpoints',
    sql: `create table public.projection_checkpoints (
      name text primary key,
      position bigint not null default 0,
      updated_at timestamptz not null default now()
    );`,
  },
  {
    // What the last batch announced, kept with its position: a projector killed between its
    // commit and its announcement announces it again when it starts (at least once).
    id: '0002-checkpoint-last-changes',
    sql: `alter table public.projection_checkpoints add column last_changes jsonb;`,
  },
  {
    // A batch form's multi-row insert (row-set.ts, ADR 0047) as one statement that needs no
    // answer: the columns the first row names, in the table's order, without generated ones,
    // looked up server-side in the schema the search_path names (a live schema, a rebuild's, a
    // verify's).
    id: '0003-batch-functions',
    sql: `create function public.insert_rows(target regclass, rows json) returns void language plpgsql as $fn$
      declare
        columns text;
      begin
        select string_agg(quote_ident(a.attname), ', ' order by a.attnum) into columns
          from pg_attribute a
         where a.attrelid = target and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
           and exists (select 1 from json_object_keys(rows -> 0) k where k = a.attname);
        execute format('insert into %s (%s) select %s from json_populate_recordset(null::%s, $1)', target, columns, columns, target)
          using rows;
      end $fn$;
      -- A live batch's guarded checkpoint move (runner.ts), sent in one round trip with the
      -- statements after it: when someone else moved the checkpoint it fails (SQLSTATE TV001), so
      -- that nothing after it in the transaction is applied.
      create function public.move_checkpoint(checkpoint text, from_position bigint, to_position bigint) returns void language plpgsql as $fn$
      begin
        update public.projection_checkpoints set position = to_position, updated_at = now()
         where name = checkpoint and position = from_position;
        if not found then
          raise exception 'checkpoint % is no longer at %', checkpoint, from_position using errcode = 'TV001';
        end if;
      end $fn$;`,
  },
  {
    // The move also forgets what the batch before announced: the batch sets it again after the
    // move, in the same transaction, when it announces something; a restart after a batch that
    // announced nothing then announces nothing again.
    id: '0004-move-clears-last-changes',
    sql: `create or replace function public.move_checkpoint(checkpoint text, from_position bigint, to_position bigint) returns void language plpgsql as $fn$
      begin
        update public.projection_checkpoints set position = to_position, last_changes = null, updated_at = now()
         where name = checkpoint and position = from_position;
        if not found then
          raise exception 'checkpoint % is no longer at %', checkpoint, from_position using errcode = 'TV001';
        end if;
      end $fn$;`,
  },
  {
    // ADR 0048. A projection's checkpoint may be stored behind what its tables reflect, after
    // batches with nothing for it: `handles` (the event types it applies, null: every one, as for
    // a policy) lets anyone tell from the database how far its read model really is, which is its
    // stored position or further, up to just before the first later event it handles.
    // `move_checkpoint` also refuses to move a checkpoint back.
    id: '0005-checkpoint-handles',
    sql: `alter table public.projection_checkpoints add column handles text[];
      create function public.checkpoint_reached(stored bigint, handles text[]) returns bigint language plpgsql stable as $fn$
      declare
        next_handled bigint;
        last bigint;
      begin
        if handles is null or to_regclass('es.events') is null then
          return stored;
        end if;
        select min(e.position) into next_handled from es.events e where e.position > stored and e.type = any(handles);
        if next_handled is not null then
          return next_handled - 1;
        end if;
        select max(e.position) into last from es.events e where e.position > stored;
        return coalesce(last, stored);
      end $fn$;
      create or replace function public.move_checkpoint(checkpoint text, from_position bigint, to_position bigint) returns void language plpgsql as $fn$
      begin
        update public.projection_checkpoints set position = to_position, last_changes = null, updated_at = now()
         where name = checkpoint and position = from_position and to_position >= from_position;
        if not found then
          raise exception 'checkpoint % is no longer at %', checkpoint, from_position using errcode = 'TV001';
        end if;
      end $fn$;`,
  },
  {
    // ADR 0048, after review. `checkpoint_reached` looks at most 10,000 positions past the stored
    // one (still a true lower bound, and a bounded read however far behind). A runner that knows
    // its handles moves its checkpoint with `advance_checkpoint`; anything else that moves or sets
    // it (`move_checkpoint`, as an earlier version of the runner does; `setCheckpoint`) forgets
    // them, so that handles recorded by another version never speak for it: the answer is then
    // the stored position. Neither moves a checkpoint back.
    id: '0006-handles-kept-by-their-runner',
    sql: `create or replace function public.checkpoint_reached(stored bigint, handles text[]) returns bigint language plpgsql stable as $fn$
      declare
        next_handled bigint;
        last bigint;
      begin
        if handles is null or to_regclass('es.events') is null then
          return stored;
        end if;
        select min(e.position) into next_handled from es.events e
         where e.position > stored and e.position <= stored + 10000 and e.type = any(handles);
        if next_handled is not null then
          return next_handled - 1;
        end if;
        select max(e.position) into last from es.events e where e.position > stored and e.position <= stored + 10000;
        return coalesce(last, stored);
      end $fn$;
      ${guardedMove('advance_checkpoint', '')}
      ${guardedMove('move_checkpoint', 'handles = null,')}`,
  },
  {
    // ADR 0052. A runner that keeps rows between live batches names, in each batch's opening, the
    // schema they were read from by its oid: a rebuild's swap renames another schema into the
    // name, so a batch after a swap fails (SQLSTATE TV002) before anything of it is applied,
    // even when the swap left the checkpoint where the runner had it.
    id: '0007-kept-rows-schema-check',
    sql: `create function public.assert_schema(schema_name text, expected oid) returns void language plpgsql as $fn$
      begin
        if to_regnamespace(schema_name)::oid is distinct from expected then
          raise exception 'schema % is not the one its kept rows were read from', schema_name using errcode = 'TV002';
        end if;
      end $fn$;`,
  },
  {
    // ADR 0065. The position a projection's tables were last rebuilt and swapped in at, committed
    // with the swap: gateways read it (at start, and every few seconds) and tell open pages to
    // read their lists again, whatever notice they missed.
    id: '0008-rebuilt-at',
    sql: `alter table public.projection_checkpoints add column rebuilt_at bigint;`,
  },
];

/** A pool, or a client inside a transaction: both can run a checkpoint's query. */
type Db = Pick<pg.Pool, 'query'>;

const TABLE = 'public.projection_checkpoints';

export const policyCheckpoint = (policy: string): string => `policy:${policy}`;

/** What a stored checkpoint name stands for: a projection by its name, or a policy (`policyCheckpoint`) by its own. */
export function checkpointOwner(stored: string): { kind: 'projection' | 'policy'; name: string } {
  const prefix = policyCheckpoint('');
  return stored.startsWith(prefix) ? { kind: 'policy', name: stored.slice(prefix.length) } : { kind: 'projection', name: stored };
}

/** The stored position, or 0 when there is none yet. */
export async function readCheckpoint(db: Db, name: string): Promise<number> {
  const { rows } = await db.query<{ position: string }>(`select position from ${TABLE} where name = $1`, [name]);
  return Number(rows[0]?.position ?? 0);
}

/** Records, in the swap's transaction, that the projection's tables were rebuilt up to `position` (ADR 0065). */
export async function markRebuilt(db: Db, name: string, position: number): Promise<void> {
  await db.query(`update ${TABLE} set rebuilt_at = $2 where name = $1`, [name, position]);
}

/** Where each projection's tables were last rebuilt and swapped in, by name (those never rebuilt are absent). */
export async function rebuilds(db: Db): Promise<Map<string, number>> {
  const { rows } = await db.query<{ name: string; at: string }>(`select name, rebuilt_at as at from ${TABLE} where rebuilt_at is not null`);
  return new Map(rows.map((r) => [r.name, Number(r.at)]));
}

/** The stored checkpoint, locked until the caller's transaction ends: no batch can move it meanwhile. */
export async function lockCheckpoint(client: pg.PoolClient, name: string): Promise<number> {
  const { rows } = await client.query<{ position: string }>(`select position from ${TABLE} where name = $1 for update`, [name]);
  return Number(rows[0]?.position ?? 0);
}

/**
 * How far the read model (or policy) behind a checkpoint has really got: its stored position, or
 * further when the events after it up to some position are none it handles (ADR 0048).
 */
export async function reachedCheckpoint(db: Db, name: string): Promise<number> {
  const { rows } = await db.query<{ position: string }>(
    `select public.checkpoint_reached(position, handles) as position from ${TABLE} where name = $1`,
    [name],
  );
  return Number(rows[0]?.position ?? 0);
}

/** Says which event types a projection applies (null: every one), for `reachedCheckpoint`. */
export async function recordHandles(db: Db, name: string, handles: string[] | null): Promise<void> {
  await db.query(`update ${TABLE} set handles = $2 where name = $1`, [name, handles]);
}

/** Makes sure the checkpoint exists (at 0 if new) and answers its position. */
export async function openCheckpoint(db: Db, name: string): Promise<number> {
  await db.query(`insert into ${TABLE} (name) values ($1) on conflict do nothing`, [name]);
  return readCheckpoint(db, name);
}

/** Marks the checkpoint as alive without moving it: a fill beside the live tables, chunk by chunk (health counts it as working, not stalled). */
export async function touchCheckpoint(db: Db, name: string): Promise<void> {
  await db.query(`update ${TABLE} set updated_at = now() where name = $1`, [name]);
}

/** Sets the checkpoint whatever it was (a rebuild's swap, a reset to 0 with fresh tables); its handles are forgotten. */
export async function setCheckpoint(db: Db, name: string, position: number): Promise<void> {
  await db.query(
    `insert into ${TABLE} (name, position) values ($1, $2)
     on conflict (name) do update set position = excluded.position, last_changes = null, handles = null, updated_at = now()`,
    [name, position],
  );
}

/**
 * Moves the checkpoint forward, in one round trip and without waiting for the WAL to reach the
 * disk: for a consumer whose effects are durable elsewhere (a policy's commands are appends), so
 * that a checkpoint lost in a crash of the database server only makes it see some events again,
 * which its idempotent reactions absorb (ADR 0047). Never back: over Kafka, a member of the group
 * cut off from it (a network partition) may finish a batch after the partition moved to another
 * member that has gone further, and its older position must not undo the other's (the partition
 * test's stall: the checkpoint back at the cut's position, with nothing left to move it on).
 */
export async function storeCheckpoint(pool: pg.Pool, name: string, position: number): Promise<void> {
  await withClient(pool, async (client) => {
    try {
      await client.query(
        `begin; set local synchronous_commit to off;
         insert into ${TABLE} as c (name, position) values (${quote(name)}, ${sqlPosition(position)})
           on conflict (name) do update set position = excluded.position, last_changes = null, updated_at = now()
           where c.position < excluded.position;
         commit`,
      );
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    }
  });
}

/** What the batch that moved the checkpoint last announced (empty when none was kept). */
export async function lastChanges<T>(db: Db, name: string): Promise<T[]> {
  const { rows } = await db.query<{ last_changes: T[] | null }>(`select last_changes from ${TABLE} where name = $1`, [name]);
  return rows[0]?.last_changes ?? [];
}

/** The error `public.advance_checkpoint` (and `move_checkpoint`) raises when the checkpoint is no longer where the batch began. */
export const CHECKPOINT_MOVED = 'TV001';
/** SQLSTATE of `assert_schema`: the projection's schema is another than the one its kept rows were read from (ADR 0052). */
export const SCHEMA_SWAPPED = 'TV002';

/** Every read-model projection's position (the policies' are left out). */
export async function projectionPositions(db: Db): Promise<Record<string, number>> {
  const { rows } = await db.query<{ name: string; position: string }>(
    `select name, public.checkpoint_reached(position, handles) as position from ${TABLE} where name not like $1`,
    [policyCheckpoint('%')],
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.position)]));
}

/** A checkpoint that did not reach a position in the time given: the work is late, not failed. */
export class CheckpointTimeout extends Error {
  constructor(
    readonly checkpoint: string,
    readonly position: number,
    timeoutMs: number,
  ) {
    super(`${checkpoint} did not reach ${position} in ${timeoutMs} ms`);
    this.name = 'CheckpointTimeout';
  }
}

/**
 * Waits until a checkpoint reached `position` (bounded; `stored`: the stored position itself, not
 * how far its read model has got): a policy that reads a read model waits
 * for it (without that, a booking placed just before its product was removed could be missed),
 * and a write waits for the policies whose reactions belong to it.
 */
export async function waitForCheckpoint(
  db: Db,
  name: string,
  position: number,
  timeoutMs = 10_000,
  opts: { stored?: boolean } = {},
): Promise<void> {
  const until = Date.now() + timeoutMs;
  const read = opts.stored ? readCheckpoint : reachedCheckpoint;
  while ((await read(db, name)) < position) {
    if (Date.now() > until) throw new CheckpointTimeout(name, position, timeoutMs);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One projection's or policy's checkpoint as the health check sees it, beside the log's head. */
export interface CheckpointHealthRow {
  /** Null when no checkpoint exists yet (the one row then only carries the head). */
  kind: 'projection' | 'policy' | null;
  /** The projection's or the policy's own name (without the `policy:` of its checkpoint); null as `kind`. */
  name: string | null;
  position: string | null;
  head: string | null;
  /** How long the oldest event it has not applied has been waiting (ms); null when it is at the head. */
  waiting_ms: number | null;
  /** How long since its checkpoint last moved (ms). */
  idle_ms: number;
}

/**
 * Every checkpoint (as far as its read model has got: `reachedCheckpoint`) with how long it has
 * been behind and idle, and the log's head, in one round trip; at least one row, so the head is known even with no checkpoint. Read by the health
 * check; what counts as stalled is the caller's to say.
 */
export async function checkpointHealth(db: Db): Promise<CheckpointHealthRow[]> {
  const { rows } = await db.query<Omit<CheckpointHealthRow, 'kind'>>(
    `select c.name, r.position, h.head,
            (extract(epoch from now() - (select e.recorded_at from es.events e where e.position > r.position order by e.position limit 1)) * 1000)::float8 as waiting_ms,
            (extract(epoch from now() - c.updated_at) * 1000)::float8 as idle_ms
       from (select max(position) as head from es.events) h
       left join ${TABLE} c on true
       left join lateral (select public.checkpoint_reached(c.position, c.handles) as position) r on c.name is not null
      order by c.name`,
  );
  return rows.map((r) => (r.name === null ? { ...r, kind: null } : { ...r, ...checkpointOwner(r.name) }));
}
