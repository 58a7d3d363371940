import type pg from 'pg';
import type { DailyActivity, LogEvent, LogPage, LogQuery } from '@tv-shop/contracts';
import { withTransaction } from '@tv-shop/platform';
import { toDaily, type DailyRow } from './audit.projection';

type Filters = Omit<LogQuery, 'after' | 'before' | 'order' | 'limit'>;

interface EventRow {
  position: string;
  event_id: string;
  at: Date;
  type: string;
  stream_id: string;
  version: number;
  actor_id: string;
  actor_name: string | null;
  actor_role: string;
  correlation_id: string;
  causation_id: string | null;
  data: Record<string, unknown>;
}

const COLUMNS = `e.position, e.event_id, e.at, e.type, e.stream_id, e.version, e.actor_id, a.name as actor_name, e.actor_role,
  e.correlation_id, e.causation_id, e.data`;
const FROM = `rm_audit.events e left join rm_audit.actors a on a.id = e.actor_id`;

export const toLogEvent = (r: EventRow): LogEvent => ({
  position: Number(r.position),
  eventId: r.event_id,
  at: r.at.toISOString(),
  type: r.type,
  streamId: r.stream_id,
  version: r.version,
  actor: { id: r.actor_id, name: r.actor_name, role: r.actor_role },
  correlationId: r.correlation_id,
  causationId: r.causation_id,
  data: r.data,
});

/** A position no event has: a window that starts after the last event holds none. */
const NONE_AFTER = '9223372036854775807';

/**
 * The where clause of a filter, with its parameters numbered from 1. `clockless`: the tables
 * being read were made before the log's clock (`log_at`): while an upgrade rebuilds them beside
 * the old ones (ADR 0068), a time window is filtered on the stored time, as it was then.
 */
function where(f: Filters, params: unknown[], clockless = false): string[] {
  const clauses: string[] = [];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (f.stream !== undefined) clauses.push(`e.stream_id = ${p(f.stream)}`);
  if (f.type !== undefined) clauses.push(`e.type = ${p(f.type)}`);
  // Each filter a range of one index (ADR 0038): the accounts of an email are found first, and a
  // time window is a range of positions, found by the log's clock (`log_at`, which never goes back
  // as positions go on), so PostgreSQL never walks the log outside the window filtering on time.
  // `from`: stored at or after it (every such event's clock is too, so none is outside the range);
  // `to`: in the log by then (an event whose append waited for its position past `to` counts after it).
  if (f.actor !== undefined)
    clauses.push(
      f.actor.includes('@')
        ? `e.actor_id = any(array(select id from rm_audit.actors where lower(email) = lower(${p(f.actor)})))`
        : `e.actor_id = ${p(f.actor.toLowerCase())}`, // ids are lower case (uuids, system, anonymous)
    );
  if (f.correlation !== undefined) clauses.push(`e.correlation_id = ${p(f.correlation)}`);
  if (f.cause !== undefined) clauses.push(`e.causation_id = ${p(f.cause)}`);
  if (clockless) {
    if (f.from !== undefined) clauses.push(`e.at >= ${p(f.from)}`);
    if (f.to !== undefined) clauses.push(`e.at <= ${p(f.to)}`);
    return clauses;
  }
  if (f.from !== undefined) {
    const from = p(f.from);
    clauses.push(
      `e.position >= coalesce((select position from rm_audit.events where log_at >= ${from} order by log_at, position limit 1), ${NONE_AFTER})`,
      `e.at >= ${from}`,
    );
  }
  if (f.to !== undefined)
    clauses.push(
      `e.position <= coalesce((select position from rm_audit.events where log_at <= ${p(f.to)} order by log_at desc, position desc limit 1), 0)`,
    );
  return clauses;
}

/** The event log's read model (rm_audit): pages of the filtered log, one event, the daily figures. */
export class AuditQueries {
  constructor(
    private readonly pool: pg.Pool,
    /** Where the queries run: the pool, or one snapshot's connection (`figures`). */
    private readonly db: Pick<pg.Pool, 'query'> = pool,
  ) {}

  /**
   * The overview's figures from one snapshot: the head, the last `days` days and the totals agree
   * (a push of a day adds to the totals what changed since this read, so a total that counted an
   * event its day did not would count it twice).
   */
  async figures(days: number): Promise<{ head: number; days: DailyActivity[]; totals: Omit<DailyActivity, 'day'> }> {
    return withTransaction(this.pool, async (client) => {
      // The transaction's first statement: every read after it sees one snapshot.
      await client.query('set transaction isolation level repeatable read, read only');
      const snapshot = new AuditQueries(this.pool, client);
      return { head: await snapshot.head(), days: await snapshot.daily(days), totals: await snapshot.totals() };
    });
  }

  /**
   * One page of the filtered log by keyset on the position: oldest first after `after`, or
   * newest first before `before` (`order: 'desc'`). A page never skips or repeats an event,
   * however many are written meanwhile.
   */
  async page(q: LogQuery): Promise<LogPage> {
    // Read before the page: an event projected meanwhile is in the page or pushed after `head`,
    // never lost between the two (a client drops pushes at or below `head` as already read).
    const head = await this.head();
    try {
      return await this.pageAfter(q, head, false);
    } catch (err) {
      // 42703, undefined column: the tables predate the log's clock (an upgrade's rebuild is under way).
      if ((err as { code?: string }).code !== '42703' || (q.from === undefined && q.to === undefined)) throw err;
      return this.pageAfter(q, head, true);
    }
  }

  private async pageAfter(q: LogQuery, head: number, clockless: boolean): Promise<LogPage> {
    const params: unknown[] = [];
    const clauses = where(q, params, clockless);
    const desc = q.order === 'desc';
    if (desc && q.before !== undefined) clauses.push(`e.position < $${params.push(q.before)}`);
    if (!desc && q.after !== undefined) clauses.push(`e.position > $${params.push(q.after)}`);
    const { rows } = await this.db.query<EventRow>(
      `select ${COLUMNS} from ${FROM} ${clauses.length ? `where ${clauses.join(' and ')}` : ''}
        order by e.position ${desc ? 'desc' : 'asc'} limit $${params.push(q.limit + 1)}`,
      params,
    );
    const more = rows.length > q.limit;
    const events = rows.slice(0, q.limit).map(toLogEvent);
    return { events, next: more ? events[events.length - 1]!.position : null, head };
  }

  /** The last position the log table holds (what a client tails from). */
  async head(): Promise<number> {
    const { rows } = await this.db.query<{ head: string | null }>(`select max(position) as head from rm_audit.events`);
    return Number(rows[0]?.head ?? 0);
  }

  async event(eventId: string): Promise<LogEvent | null> {
    const { rows } = await this.db.query<EventRow>(`select ${COLUMNS} from ${FROM} where e.event_id = $1`, [eventId]);
    return rows[0] ? toLogEvent(rows[0]) : null;
  }

  /** The whole filtered log, oldest first, a page at a time (an export streams it). */
  async *all(f: Filters, pageSize = 500): AsyncGenerator<LogEvent[]> {
    let after: number | undefined;
    for (;;) {
      const page = await this.page({ ...f, order: 'asc', limit: pageSize, ...(after === undefined ? {} : { after }) });
      if (page.events.length > 0) yield page.events;
      if (page.next === null) return;
      after = page.next;
    }
  }

  /** Names the log gave these accounts (deleted ones included). */
  async namesOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.db.query<{ id: string; name: string }>(`select id, name from rm_audit.actors where id = any($1)`, [ids]);
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** The last `days` UTC days up to today, oldest first; a day without activity is zeros. */
  async daily(days: number, today = new Date()): Promise<DailyActivity[]> {
    const { rows } = await this.db.query<DailyRow>(
      `select to_char(g.day, 'YYYY-MM-DD') as day, coalesce(d.listings, 0) as listings, coalesce(d.bookings, 0) as bookings,
              coalesce(d.payments, 0) as payments, coalesce(d.paid_poisha, 0) as paid_poisha, coalesce(d.reports, 0) as reports
         from generate_series(($1::timestamptz at time zone 'UTC')::date - ($2::int - 1), ($1::timestamptz at time zone 'UTC')::date, interval '1 day') as g(day)
         left join rm_audit.daily d on d.day = g.day::date
        order by g.day`,
      [today.toISOString(), days],
    );
    return rows.map(toDaily);
  }

  /** Every day's figures added up, since the log began. */
  async totals(): Promise<Omit<DailyActivity, 'day'>> {
    const { rows } = await this.db.query<Omit<DailyRow, 'day'>>(
      `select coalesce(sum(listings), 0) as listings, coalesce(sum(bookings), 0) as bookings, coalesce(sum(payments), 0) as payments,
              coalesce(sum(paid_poisha), 0) as paid_poisha, coalesce(sum(reports), 0) as reports from rm_audit.daily`,
    );
    const { day: _day, ...totals } = toDaily({ day: '', ...rows[0]! });
    return totals;
  }
}
