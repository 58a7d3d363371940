import pg from 'pg';
import { ConcurrencyError, DuplicateEventError, asUnavailable } from '../errors';
import { dedicatedClient } from '../db/database';
import { migrate } from '../db/migrate';
import { backoffMs } from '../retry';
import { eventStoreMigrations } from './migrations';
import { LiveSubscriptions } from './subscription';
import { validateAppend } from './validate';
import type { AppendResult, EventStore, ExpectedVersion, NewEvent, RecordedEvent, SubscribeOptions, Subscription } from './types';

/**
 * Appends hold this transaction-scoped advisory lock from the moment they take their global
 * positions until commit. PostgreSQL makes a transaction visible before it releases its locks,
 * so positions become visible in increasing order: a reader that has seen position N can never
 * later find a committed event below N. See docs/adr/0002-global-order.md.
 */
const APPEND_LOCK = 0x7ec5_0001;
const CHANNEL = 'es_events';

interface Row {
  position: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: RecordedEvent['metadata'];
  recorded_at: Date;
}
const COLUMNS = 'position, event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at';
const toEvent = (r: Row): RecordedEvent => ({
  eventId: r.event_id,
  streamId: r.stream_id,
  version: r.stream_version,
  position: Number(r.position),
  type: r.type,
  schemaVersion: r.schema_version,
  data: r.data,
  metadata: r.metadata,
  recordedAt: r.recorded_at.toISOString(),
});

export interface PostgresEventStoreOptions {
  /** How often a live subscription polls when no notification arrives (ms). */
  pollIntervalMs?: number;
}

/** Rethrows a connection failure as the typed 503 (retry later); anything else unchanged. */
const unavailable = (err: unknown): never => {
  throw asUnavailable(err);
};

export class PostgresEventStore implements EventStore {
  private listener: pg.Client | null = null;
  private listening: Promise<void> | null = null;
  private dropListener: (() => void) | null = null;
  private readonly live: LiveSubscriptions;
  private closed = false;

  constructor(
    readonly pool: pg.Pool,
    private readonly opts: PostgresEventStoreOptions = {},
  ) {
    this.live = new LiveSubscriptions(this, opts.pollIntervalMs ?? 1000);
  }

  static async migrate(pool: pg.Pool): Promise<void> {
    await migrate(pool, 'event-store', eventStoreMigrations);
  }

  /**
   * One statement, one round trip (ADR 0039): `es.append_events` checks the stream's version,
   * takes the global ordering lock, inserts and notifies server-side, and the statement's own
   * transaction commits at once, so the lock is held from the insert to the commit only.
   */
  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    validateAppend(streamId, events, expected);
    const mode = expected === -1 ? 'no_stream' : String(expected);
    const payload = JSON.stringify(
      events.map((e) => ({ eventId: e.eventId, type: e.type, schemaVersion: e.schemaVersion ?? 1, data: e.data, metadata: e.metadata })),
    );
    let rows: (Row & { conflict_version: number | null })[];
    try {
      ({ rows } = await this.pool.query<Row & { conflict_version: number | null }>(
        `select ${COLUMNS}, conflict_version from es.append_events($1, $2, $3::jsonb, $4, $5)`,
        [streamId, mode, payload, APPEND_LOCK, CHANNEL],
      ));
    } catch (err) {
      if (isUniqueViolation(err, 'events_event_id_key')) {
        throw new DuplicateEventError(String((err as { detail?: string }).detail?.match(/\(event_id\)=\(([^)]+)\)/)?.[1] ?? ''));
      }
      // A connection lost around the commit leaves the outcome unknown: the 503 says retry, and a
      // retry with the same command id (Idempotency-Key) finds the events if they were stored.
      throw asUnavailable(err);
    }
    const conflict = rows[0]?.conflict_version;
    if (conflict !== null && conflict !== undefined) throw new ConcurrencyError(streamId, String(expected), conflict);
    const recorded = rows.map(toEvent).sort((a, b) => a.position - b.position);
    const last = recorded[recorded.length - 1]!;
    return { nextVersion: last.version, position: last.position, events: recorded };
  }

  async readStream(streamId: string, opts: { fromVersion?: number } = {}): Promise<RecordedEvent[]> {
    const { rows } = await this.pool
      .query<Row>(`select ${COLUMNS} from es.events where stream_id = $1 and stream_version >= $2 order by stream_version`, [
        streamId,
        opts.fromVersion ?? 0,
      ])
      .catch(unavailable);
    return rows.map(toEvent);
  }

  async readAll(from: number, limit: number): Promise<RecordedEvent[]> {
    const { rows } = await this.pool
      .query<Row>(`select ${COLUMNS} from es.events where position > $1 order by position limit $2`, [from, limit])
      .catch(unavailable);
    return rows.map(toEvent);
  }

  async findEvent(eventId: string): Promise<RecordedEvent | null> {
    if (!/^[0-9a-f-]{36}$/i.test(eventId)) return null;
    const { rows } = await this.pool.query<Row>(`select ${COLUMNS} from es.events where event_id = $1`, [eventId]).catch(unavailable);
    return rows[0] ? toEvent(rows[0]) : null;
  }

  async headPosition(): Promise<number> {
    const { rows } = await this.pool.query<{ p: string | null }>('select max(position) as p from es.events').catch(unavailable);
    return Number(rows[0]?.p ?? 0);
  }

  subscribe(opts: SubscribeOptions): Subscription {
    this.listen();
    return this.live.subscribe(opts);
  }

  /**
   * One LISTEN connection per store wakes every live subscription; polling covers the gaps.
   * A lost or refused connection is opened again with capped backoff (~2 s), forever, until the
   * store closes; every (re)connect wakes everyone, since appends may have happened meanwhile.
   */
  private listen(): void {
    if (this.listening || this.closed) return;
    this.listening = this.listenLoop().finally(() => {
      this.listening = null;
    });
  }

  private async listenLoop(): Promise<void> {
    let attempt = 0;
    while (!this.closed) {
      let drop!: () => void;
      const lost = new Promise<void>((resolve) => (drop = resolve));
      this.dropListener = drop;
      const client = dedicatedClient(this.pool, () => drop());
      client.on('end', () => drop());
      client.on('notification', () => this.live.wakeAll());
      try {
        await client.connect();
        await client.query(`listen ${CHANNEL}`);
        if (!this.closed) {
          this.listener = client;
          attempt = 0;
          // Wake everyone once: something may have been appended while nobody was listening.
          this.live.wakeAll();
          await lost;
        }
      } catch {
        // Refused or dropped while connecting: try again below.
      }
      this.listener = null;
      this.dropListener = null;
      await client.end().catch(() => {});
      if (this.closed) break;
      attempt++;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, backoffMs(attempt));
        this.dropListener = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.live.stopAll();
    this.dropListener?.();
    await this.listening;
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }
}

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
