import { z } from 'zod';
import type { Role } from './entities';
import { wholeNumber } from './numbers';

/**
 * The event log as operators and the admin read it (GET /api/admin/events, the live tail, the
 * audit export). Every field a secret could hide in (a password's hash, a token) is `[hidden]`.
 */
export interface LogEvent {
  /** The event's place in the whole log: unique, increasing, the key to page on. */
  position: number;
  eventId: string;
  /** When the log stored it (ISO-8601). */
  at: string;
  type: string;
  streamId: string;
  /** The stream's own version of this event (0 for its first). */
  version: number;
  /** Who caused it. `name` is their name when the log last said it; null for the system or an account the log never named. */
  actor: { id: string; name: string | null; role: string };
  correlationId: string;
  /** The event this one reacted to (a policy's effect names its cause); null for a person's command. */
  causationId: string | null;
  data: Record<string, unknown>;
}

/** One page of the log, oldest first. `next` is the `after` for the following page; null at the end. */
export interface LogPage {
  events: LogEvent[];
  next: number | null;
  /** The last event the event log held before the page was read: a client tails from here. */
  head: number;
}

/** GET /api/admin/events and /api/admin/events/export: every filter optional. */
export interface LogFilter {
  stream?: string;
  type?: string;
  /** A user id or an email address. */
  actor?: string;
  correlation?: string;
  /** An event id: the events it caused (their `causationId`). */
  cause?: string;
  /** ISO-8601 times, inclusive. */
  from?: string;
  to?: string;
  /** Exclusive position: events after it (oldest first). */
  after?: number;
  /** Exclusive position: events before it, with `order: 'desc'` (newest first). */
  before?: number;
  order?: 'asc' | 'desc';
  /** 1 to 200; 50 by default. */
  limit?: number;
}

/**
 * GET /api/admin/streams/{streamId}?at=&limit=: the entity as it was at `at` (a position or an ISO
 * time; now when absent), folded by the owning service's own `evolve`, and the last `limit` of its
 * events up to then (a seller's stream holds an event for each listing they ever made).
 */
export interface StreamHistory {
  streamId: string;
  /** The service that owns the stream (catalog, orders, identity). */
  owner: string;
  /** What the state describes (product, booking, user, seller_listings, ...). */
  category: string;
  /** The position asked for, resolved: the last event included (0 when none is). */
  at: number;
  state: unknown;
  /**
   * The state just before the event at `at` (the stream's start when it is the first; the start
   * too when none is included): what that event changed, without asking again.
   */
  previous: unknown;
  /** The last `limit` (100 by default) of the stream's events up to `at`, oldest first. */
  events: LogEvent[];
  /**
   * How many of the stream's events up to `at` come before those in `events` (0 when `events`
   * starts at the stream's beginning; all of them with `limit=0`): the page before is asked for
   * with `at` just before the first of `events`.
   */
  earlier: number;
  /** How many events the stream has in all (a slider's full length). */
  total: number;
}

/** One day's activity (UTC), for the admin overview's charts. */
export interface DailyActivity {
  /** yyyy-mm-dd */
  day: string;
  listings: number;
  bookings: number;
  payments: number;
  /** What the day's payments took, in poisha (a refund is of a payment that bought nothing, so none is taken off). */
  paidPoisha: number;
  reports: number;
}

/** GET /api/admin/overview. */
export interface AdminOverview {
  /** The last 30 days, oldest first, one entry per day (days without activity are zeros). */
  days: DailyActivity[];
  totals: { listings: number; bookings: number; payments: number; paidPoisha: number; reports: number };
  /** Products reported and not yet removed. */
  openReports: number;
  /** The latest events, newest first. */
  recent: LogEvent[];
  /** Each projection's and policy's distance behind the head of the log. */
  lag: ProjectionLag[];
  head: number;
}

export interface ProjectionLag {
  name: string;
  kind: 'projection' | 'policy';
  position: number;
  /** Events behind the head. */
  events: number;
  /** Seconds since the oldest event it has not applied was stored (0 when caught up). */
  seconds: number;
}

/** POST /api/admin/projections/{name}/verify: the live tables beside a fresh replay of the log. */
export interface VerifyReport {
  projection: string;
  equal: boolean;
  /** The log position both were compared at. */
  position: number;
  tookMs: number;
  differences: {
    table: string;
    onlyLive: number;
    onlyRebuilt: number;
    rows: { side: 'live' | 'rebuilt'; row: Record<string, unknown> }[];
    note?: string;
  }[];
}

/** Roles that appear as actors besides a person's: the system's own reactions. */
export type ActorRole = Role | 'System';

/**
 * A moment: an ISO-8601 time with its zone (`Z` or an offset; a time without one would be read in
 * the server's zone), or a bare UTC date, which means the start of that day, or with `endOfDay`
 * its last millisecond (`to=2026-11-22` includes that whole day).
 */
const isoTime = (endOfDay = false) =>
  z
    .string()
    .trim()
    .refine((s) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/i.test(s) && realDate(s), {
      message: 'must be an ISO-8601 time with its zone (2026-11-22T10:00:00Z) or a date (2026-11-22)',
      abort: true,
    })
    .refine(inFourDigitYears, 'must be before the year 10000 (in UTC)')
    .transform((s) => (s.length === 10 && endOfDay ? new Date(Date.parse(s) + 86_400_000 - 1) : new Date(s)).toISOString());
/**
 * Whether the moment, in UTC, is still before year 10000: an hour 24 or an offset can carry
 * 9999-12-31 into it, and its ISO form (+010000-...) is one PostgreSQL refuses. (Years before 100
 * are refused by `realDate`: Date.UTC reads them as 19xx.)
 */
const inFourDigitYears = (s: string) => Date.parse(s) < Date.UTC(10000, 0, 1);
/** Whether the date part names a day that exists (Date.parse takes 2026-02-30 for 2 March). */
const realDate = (s: string) => {
  const [y, m, d] = s.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d && !Number.isNaN(Date.parse(s));
};
const position = wholeNumber().pipe(
  z.number().int('must be a whole number').min(0, 'must be 0 or more').max(Number.MAX_SAFE_INTEGER, 'is past the end of the log'),
);
const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The filters the log page and the export share. */
const logFilters = {
  stream: text(240).optional(),
  type: z
    .string()
    .trim()
    .regex(/^[A-Z][A-Za-z0-9]{0,80}$/, 'must be an event type such as ProductReported')
    .optional(),
  actor: text(320).optional(),
  correlation: text(120).optional(),
  cause: z.string().trim().regex(UUID, 'must be an event id').optional(),
  from: isoTime().optional(),
  to: isoTime(true).optional(),
};
/** A time range that ends before it starts matches nothing: it is a mistake, said as one. */
const inOrder = (q: { from?: string; to?: string }) => q.from === undefined || q.to === undefined || q.from <= q.to;
const outOfOrder = { message: 'must not be after to', path: ['from'] };

/**
 * The event log's query string (GET /api/admin/events). `after` pages forward (oldest first, the
 * default); `order=desc` reads newest first, paging back with `before`.
 */
export const LogQuery = z
  .object({
    ...logFilters,
    after: position.optional(),
    before: position.optional(),
    order: z.enum(['asc', 'desc']).default('asc'),
    limit: wholeNumber()
      .pipe(z.number().int('must be a whole number').min(1, 'must be at least 1').max(200, 'must be at most 200'))
      .default(50),
  })
  .strict()
  .refine((q) => q.after === undefined || q.order === 'asc', { message: 'pages forward: it goes with order=asc', path: ['after'] })
  .refine((q) => q.before === undefined || q.order === 'desc', { message: 'pages back: it goes with order=desc', path: ['before'] })
  .refine(inOrder, outOfOrder);
export type LogQuery = z.infer<typeof LogQuery>;

/** The export's query string: the same filters and a format, without paging (the whole filtered log). */
export const LogExportQuery = z
  .object({ ...logFilters, format: z.enum(['ndjson', 'csv']).default('ndjson') })
  .strict()
  .refine(inOrder, outOfOrder);
export type LogExportQuery = z.infer<typeof LogExportQuery>;

/** The most events one read of a stream's history carries. */
const STREAM_EVENTS_MAX = 500;

/**
 * GET /api/admin/streams/{id}: `at`, a log position or an ISO time (now when absent); `limit`,
 * how many of the events up to it to carry (0 for the state alone, 100 by default).
 */
export const StreamAtQuery = z
  .object({
    limit: wholeNumber()
      .pipe(
        z.number().int('must be a whole number').min(0, 'must be 0 or more').max(STREAM_EVENTS_MAX, `must be at most ${STREAM_EVENTS_MAX}`),
      )
      .default(100),
    at: z
      .union(
        [
          z
            .string()
            .trim()
            .regex(/^\d{1,15}$/)
            .transform(Number),
          isoTime(true),
        ],
        { message: 'must be a log position or an ISO-8601 time' },
      )
      .optional(),
  })
  .strict();
