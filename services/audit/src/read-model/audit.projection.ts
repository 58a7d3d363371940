import type { DailyActivity, EventOf } from '@tv-shop/contracts';
import { rooms } from '@tv-shop/contracts';
import { insertRows, RowSet, type BatchContext, type Projection, type ProjectionContext, type RecordedEvent } from '@tv-shop/platform';
import { logEventOf } from '../history';
import { redact, SECRET_KEY } from '../redact';

/**
 * The event log as operators query it: every event once, with the columns the filters need
 * indexed (stream, type, actor, correlation, cause, time), its data with secrets hidden; the
 * names the log gave each account (an actor keeps their name after the account is deleted: the
 * audit must still say who); and each day's counts for the admin overview. Built from the log
 * itself, so it answers the same over the PostgreSQL store and EventStoreDB, and an operator can
 * rebuild or verify it like any read model.
 */
export const auditProjection: Projection = {
  name: 'audit',
  schema: 'rm_audit',
  // Only the admin reads it, and its first start replays the whole log: shoppers' writes do not wait for it.
  awaited: false,
  setup: `
    create table events (
      position bigint primary key,
      event_id uuid not null unique,
      stream_id text not null,
      version integer not null,
      type text not null,
      at timestamptz not null,
      actor_id text not null,
      actor_role text not null,
      correlation_id text not null,
      causation_id text,
      data jsonb not null,
      -- The latest time stored up to this event (a running max of "at"): the log's clock, which
      -- never goes back as positions go on, so a time window is one range of positions. ("at" is
      -- taken when the append's transaction starts, before it waits its turn for a position.)
      log_at timestamptz not null
    );
    create index events_by_stream on events (stream_id, position);
    create index events_by_type on events (type, position);
    create index events_by_actor on events (actor_id, position);
    create index events_by_correlation on events (correlation_id, position);
    create index events_by_cause on events (causation_id, position) where causation_id is not null;
    create index events_by_log_time on events (log_at, position);
    -- One row: the log's clock as of the last event applied (kept between live batches, ADR 0052).
    create table clock (
      id integer primary key,
      log_at timestamptz not null
    );
    create table actors (
      id text primary key,
      name text not null,
      email text not null
    );
    create index actors_by_email on actors (lower(email));
    create table daily (
      day date primary key,
      listings integer not null default 0,
      bookings integer not null default 0,
      payments integer not null default 0,
      -- What BookingPaid took. A refund is never of that money (orders refunds only a payment
      -- that bought nothing: a lost race, a cancelled booking), so no refund is taken off it.
      paid_poisha bigint not null default 0,
      reports integer not null default 0
    );
    -- Keys hidden in data: ${SECRET_KEY.source}
  `,
  handlers: {
    UserRegistered: async (e, ctx) => {
      const d = e.data as EventOf<'UserRegistered'>['data'];
      await ctx.db.query(
        `insert into actors (id, name, email) values ($1, $2, $3)
         on conflict (id) do update set name = excluded.name, email = excluded.email`,
        [d.userId, d.name, d.email],
      );
    },
    UserProfileUpdated: async (e, ctx) => {
      const d = e.data as EventOf<'UserProfileUpdated'>['data'];
      await ctx.db.query(`update actors set name = $2 where id = $1`, [d.userId, d.name]);
    },
    ProductListed: async (e, ctx) => count(e, ctx, 'listings'),
    BookingPlaced: async (e, ctx) => count(e, ctx, 'bookings'),
    BookingPaid: async (e, ctx) => count(e, ctx, 'payments', (e.data as EventOf<'BookingPaid'>['data']).amountPoisha),
    ProductReported: async (e, ctx) => count(e, ctx, 'reports'),
  },
  // After each event's own handler, so that an account's first event already names it.
  everyEvent: async (e, ctx) => record(e, ctx),
  // A replay or a long catch-up: the same rows, written once per batch (ADR 0044).
  applyBatch: (events, ctx) => applyBatch(events, ctx),
};

/**
 * Pushes go to the admins' live views only for events stored this recently: when the projection
 * replays an old log (its first start, a rebuild's tail) or catches up after it was stopped,
 * nobody is watching those as news, and thousands of pushes would only crowd the sockets'
 * catch-up buffer. Except a live batch's newest event, always: a page that was watching sees the
 * positions it was not sent and reads them (ADR 0038), also when the shop is quiet after it.
 */
const LIVE_WINDOW_MS = 2 * 60_000;

/** The one row of `clock`. */
const CLOCK = '1';
const live = (e: RecordedEvent) => Date.now() - new Date(e.recordedAt).getTime() < LIVE_WINDOW_MS;

type Counted = 'listings' | 'bookings' | 'payments' | 'reports' | null;

/** The row `record` writes for an event (its data's secrets hidden), with the log's clock at it. */
const eventRow = (e: RecordedEvent, logAt: string) => ({
  position: e.position,
  event_id: e.eventId,
  stream_id: e.streamId,
  version: e.version,
  type: e.type,
  at: e.recordedAt,
  actor_id: e.metadata.actorId,
  actor_role: e.metadata.actorRole,
  correlation_id: e.metadata.correlationId,
  causation_id: e.metadata.causationId ?? null,
  data: redact(e.data) as Record<string, unknown>,
  log_at: logAt,
});

/** What `count` adds to a day's figures for an event; null for an event that is not counted. */
function counted(e: RecordedEvent): { what: Counted; paidPoisha: number } | null {
  switch (e.type) {
    case 'ProductListed':
      return { what: 'listings', paidPoisha: 0 };
    case 'BookingPlaced':
      return { what: 'bookings', paidPoisha: 0 };
    case 'BookingPaid':
      return { what: 'payments', paidPoisha: (e.data as EventOf<'BookingPaid'>['data']).amountPoisha };
    case 'ProductReported':
      return { what: 'reports', paidPoisha: 0 };
    default:
      return null;
  }
}

/**
 * The handlers above for a batch of events at once (a replay, a long catch-up, a busy live log;
 * ADRs 0044, 0047): every event's row in one insert, the actors the batch names read once and
 * written once, and the days it counts in read once, added to in memory and written once.
 * Pushes, as for single events, only for events stored in the last two minutes, and the batch's
 * newest event whatever its age (`live`): each such event, and each day they counted in, once.
 * The overview reads itself again when the pushes skip positions, or bring a day older than its
 * thirty (whose change its totals cannot take in).
 */
async function applyBatch(events: RecordedEvent[], ctx: BatchContext): Promise<void> {
  const newest = events.at(-1);
  const pushes = (e: RecordedEvent) => !ctx.replaying && (live(e) || e === newest);
  const pushed = events.filter(pushes);
  const named = events
    .filter((e) => e.type === 'UserRegistered' || e.type === 'UserProfileUpdated')
    .map((e) => (e.data as { userId: string }).userId);
  // Kept between live batches (ADR 0052): the day's figures and the actors of recent events.
  const actors = new RowSet<{ id: string; name: string; email: string }>('actors', ['id'], ctx.kept);
  const daily = new RowSet<DayRecord>('daily', ['day'], ctx.kept);
  const clock = new RowSet<{ id: number; log_at: string }>('clock', ['id'], ctx.kept);
  // The UTC day of an event, as `at time zone 'UTC'` makes it.
  const dayOf = (e: RecordedEvent) => new Date(e.recordedAt).toISOString().slice(0, 10);
  await RowSet.loadTogether(ctx.db, [
    actors.byKeys('t.id = any($1)', [...named, ...pushed.map((e) => e.metadata.actorId)]),
    daily.byKeys('t.day = any($1::date[])', events.filter((e) => counted(e)).map(dayOf)),
    clock.byKeys('t.id = any($1::int[])', [CLOCK]),
  ]);
  /** Each day pushed, with the last pushed event counted in it. */
  const pushedDays = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'UserRegistered') {
      const d = e.data as EventOf<'UserRegistered'>['data'];
      if (!actors.update(d.userId, { name: d.name, email: d.email })) actors.insert({ id: d.userId, name: d.name, email: d.email });
    }
    if (e.type === 'UserProfileUpdated') {
      const d = e.data as EventOf<'UserProfileUpdated'>['data'];
      actors.update(d.userId, { name: d.name });
    }
    const count = counted(e);
    if (count) {
      const day = dayOf(e);
      let figures = daily.get(day);
      if (!figures) daily.insert((figures = { day, listings: 0, bookings: 0, payments: 0, paid_poisha: 0, reports: 0 }));
      daily.update(day, {
        ...(count.what ? { [count.what]: figures[count.what] + 1 } : {}),
        paid_poisha: figures.paid_poisha + count.paidPoisha,
      });
      if (pushes(e)) pushedDays.set(day, e.position);
    }
    // As `record`: the actor's name as of this event (after its own handler).
    if (pushes(e)) {
      const row = logEventOf(e, actors.get(e.metadata.actorId)?.name ?? null);
      ctx.emit({ entity: 'log_event', op: 'upsert', id: String(e.position), row }, [rooms.admins], e.position);
    }
  }
  // The log's clock goes on from where the last batch left it.
  const was = clock.get(CLOCK);
  let time = was ? Date.parse(was.log_at) : -Infinity;
  insertRows(
    ctx,
    'events',
    events.map((e) => {
      time = Math.max(time, Date.parse(e.recordedAt));
      return eventRow(e, new Date(time).toISOString());
    }),
  );
  const logAt = new Date(time).toISOString();
  if (!clock.update(CLOCK, { log_at: logAt })) clock.insert({ id: Number(CLOCK), log_at: logAt });
  clock.save(ctx);
  actors.save(ctx);
  daily.save(ctx);
  for (const [day, position] of pushedDays) {
    ctx.emit({ entity: 'daily_activity', op: 'upsert', id: day, row: toDaily(daily.get(day)!) }, [rooms.admins], position);
  }
}

/** A day's figures as `to_json` shows them (its day as YYYY-MM-DD). */
interface DayRecord {
  day: string;
  listings: number;
  bookings: number;
  payments: number;
  paid_poisha: number;
  reports: number;
}

/** Copies the event into the log table (its data's secrets hidden) and pushes it to the admins' live tail. */
async function record(e: RecordedEvent, ctx: ProjectionContext): Promise<void> {
  const m = e.metadata;
  const data = redact(e.data) as Record<string, unknown>;
  await ctx.db.query(
    `insert into events (position, event_id, stream_id, version, type, at, actor_id, actor_role, correlation_id, causation_id, data, log_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, greatest($6::timestamptz, (select log_at from clock)))`,
    [
      e.position,
      e.eventId,
      e.streamId,
      e.version,
      e.type,
      e.recordedAt,
      m.actorId,
      m.actorRole,
      m.correlationId,
      m.causationId ?? null,
      data,
    ],
  );
  await ctx.db.query(
    `insert into clock (id, log_at) values (${CLOCK}, $1) on conflict (id) do update set log_at = greatest(clock.log_at, excluded.log_at)`,
    [e.recordedAt],
  );
  // One at a time, every event is its batch's newest (`live`).
  if (ctx.replaying) return;
  const { rows } = await ctx.db.query<{ name: string }>(`select name from actors where id = $1`, [m.actorId]);
  const row = logEventOf(e, rows[0]?.name ?? null);
  ctx.emit({ entity: 'log_event', op: 'upsert', id: String(e.position), row }, [rooms.admins]);
}

/** Adds the event to its day's figures (UTC days; `what` counted once, `paidPoisha` added) and pushes the day. */
async function count(e: RecordedEvent, ctx: ProjectionContext, what: Counted, paidPoisha = 0): Promise<void> {
  const counted = what === null ? '' : `${what}, `;
  const { rows } = await ctx.db.query<DailyRow>(
    `insert into daily as d (day, ${counted}paid_poisha) values (($1::timestamptz at time zone 'UTC')::date, ${what === null ? '' : '1, '}$2)
     on conflict (day) do update set ${what === null ? '' : `${what} = d.${what} + 1, `}paid_poisha = d.paid_poisha + excluded.paid_poisha
     returning to_char(day, 'YYYY-MM-DD') as day, listings, bookings, payments, paid_poisha, reports`,
    [e.recordedAt, paidPoisha],
  );
  // One at a time, every event is its batch's newest: its day is pushed whatever its age (`live`).
  const day = toDaily(rows[0]!);
  ctx.emit({ entity: 'daily_activity', op: 'upsert', id: day.day, row: day }, [rooms.admins]);
}

export interface DailyRow {
  day: string;
  listings: number;
  bookings: number;
  payments: number;
  paid_poisha: string | number;
  reports: number;
}
export const toDaily = (r: DailyRow): DailyActivity => ({
  day: r.day,
  listings: Number(r.listings),
  bookings: Number(r.bookings),
  payments: Number(r.payments),
  paidPoisha: Number(r.paid_poisha),
  reports: Number(r.reports),
});
