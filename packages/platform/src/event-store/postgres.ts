import pg from 'pg';
import { ConcurrencyError, DuplicateEventError, asUnavailable, describeError, isTransientRollback } from '../errors';
import { createLogger } from '../log';
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
export const APPEND_LOCK = 0x7ec5_0001;
const CHANNEL = 'es_events';
const log = createLogger('event-store');

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
  /**
   * At most this many appends share one transaction (group commit, ADR 0046); 1 commits every
   * append on its own. Default 64.
   */
  maxGroupAppends?: number;
}

/** Caps on one group, so one statement's work stays bounded; an append larger than the events cap
 * still goes, in a group of its own. */
const MAX_GROUP_APPENDS = 64;
const MAX_GROUP_EVENTS = 2000;

interface PendingAppend {
  streamId: string;
  expected: ExpectedVersion;
  /** The expectation as the SQL functions take it: 'no_stream', 'any', 'stream_exists' or a version. */
  mode: string;
  /** The events as the JSON array the SQL functions take. */
  payload: string;
  /** Event ids (one per event, in order), lower-case as PostgreSQL returns uuids. */
  ids: string[];
  resolve(result: AppendResult): void;
  reject(err: unknown): void;
}

type GroupRow = Row & { idx: number | null; conflict_version: number | null; duplicate_id: string | null };

const resultOf = (events: RecordedEvent[]): AppendResult => {
  const recorded = events.sort((a, b) => a.position - b.position);
  const last = recorded[recorded.length - 1]!;
  return { nextVersion: last.version, position: last.position, events: recorded };
};

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
  /** Appends waiting for the next group, oldest first. */
  private readonly queue: PendingAppend[] = [];
  /** A group is being committed: new appends wait for the next one. */
  private committing = false;
  private readonly maxGroupAppends: number;
  /** A notification heard while a group was being committed (`notified`). */
  private heard: { position: number | undefined } | null = null;

  constructor(
    readonly pool: pg.Pool,
    private readonly opts: PostgresEventStoreOptions = {},
  ) {
    this.live = new LiveSubscriptions(this, opts.pollIntervalMs ?? 1000);
    this.maxGroupAppends = Math.max(1, Math.floor(opts.maxGroupAppends ?? MAX_GROUP_APPENDS));
  }

  static async migrate(pool: pg.Pool): Promise<void> {
    await migrate(pool, 'event-store', eventStoreMigrations);
  }

  /**
   * Group commit (ADR 0046): an append that arrives while this store is committing a group waits
   * and joins the next one, so under load one transaction (one WAL flush) carries many appends;
   * a lone append goes at once. Each append keeps its own version check and gets exactly its own
   * outcome, the same results and errors as an append on its own.
   */
  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    validateAppend(streamId, events, expected);
    return new Promise<AppendResult>((resolve, reject) => {
      // Serialized now, as the caller hands them over: a later change to the objects is not stored.
      const payload = JSON.stringify(
        events.map((e) => ({ eventId: e.eventId, type: e.type, schemaVersion: e.schemaVersion ?? 1, data: e.data, metadata: e.metadata })),
      );
      this.queue.push({
        streamId,
        expected,
        mode: expected === -1 ? 'no_stream' : String(expected),
        payload,
        ids: events.map((e) => e.eventId.toLowerCase()),
        resolve,
        reject,
      });
      this.pump();
    });
  }

  /** Starts the next group unless one is being committed (its end starts the next). */
  private pump(): void {
    if (this.committing || this.queue.length === 0) return;
    this.committing = true;
    const group = this.takeGroup();
    void this.commitGroup(group)
      // Not expected: every append has its outcome already. Should the answer be malformed, no
      // caller is left waiting (settling a settled promise does nothing).
      .catch((err: unknown) => group.forEach((p) => p.reject(err)))
      .finally(() => {
        this.committing = false;
        const heard = this.heard;
        this.heard = null;
        if (heard) this.live.wakeAll(heard.position);
        this.pump();
      });
  }

  /**
   * A notification: something was appended, up to `position` (the payload es.append_events and
   * es.append_groups send). While this process's own group is being committed it is held until
   * that group's answer is in: it is most likely that group's own, and the subscriptions then get
   * its events from the shared tail without reading them back (ADR 0047).
   */
  private notified(position: number | undefined): void {
    if (!this.committing) return this.live.wakeAll(position);
    // Several heard meanwhile: the furthest; one that named no position makes it unknown.
    const before = this.heard;
    this.heard = {
      position: !before
        ? position
        : before.position === undefined || position === undefined
          ? undefined
          : Math.max(before.position, position),
    };
  }

  /**
   * The oldest waiting appends, in arrival order, up to the caps. An append that repeats an event
   * id of one already in the group waits for the next group: across groups the database decides
   * which one stored it first, exactly as for appends on their own.
   */
  private takeGroup(): PendingAppend[] {
    const group = [this.queue.shift()!];
    const ids = new Set(group[0]!.ids);
    let events = group[0]!.ids.length;
    while (group.length < this.maxGroupAppends && this.queue.length > 0) {
      const next = this.queue[0]!;
      if (events + next.ids.length > MAX_GROUP_EVENTS || next.ids.some((id) => ids.has(id))) break;
      this.queue.shift();
      group.push(next);
      next.ids.forEach((id) => ids.add(id));
      events += next.ids.length;
    }
    return group;
  }

  private async commitGroup(group: PendingAppend[]): Promise<void> {
    if (group.length === 1) return this.appendAlone(group[0]!);
    let rows: GroupRow[];
    try {
      ({ rows } = await this.pool.query<GroupRow>({
        // Named, so each connection parses and plans it once (ADR 0050).
        name: 'es_append_groups',
        text: `select idx, ${COLUMNS}, conflict_version, duplicate_id from es.append_groups($1::jsonb, $2, $3)`,
        values: [
          `[${group.map((p) => `{"stream":${JSON.stringify(p.streamId)},"expected":${JSON.stringify(p.mode)},"events":${p.payload}}`).join(',')}]`,
          APPEND_LOCK,
          CHANNEL,
        ],
      }));
    } catch (err) {
      // Nothing of the group was written, and each append goes again on its own, so each gets the
      // outcome it would have had alone, when: one of these event ids is stored already (an append
      // retried, or another writer's) and the insert failed on it (ADR 0050), the duplicate then
      // found after its own version check, as alone; or PostgreSQL rolled the group back because
      // of another transaction (a deadlock, say), which is logged: it means a lock-order bug.
      const duplicate = isUniqueViolation(err, 'events_event_id_key');
      if (duplicate || isTransientRollback(err)) {
        if (!duplicate)
          log.error('a group of appends was rolled back because of another transaction; each goes again alone', {
            appends: group.length,
            error: describeError(err),
          });
        for (const p of group) await this.appendAlone(p);
        return;
      }
      // As for a lone append: a connection lost around the commit leaves the outcome unknown, and
      // the 503 says "retry with the same command id".
      const failure = asUnavailable(err);
      for (const p of group) p.reject(failure);
      return;
    }
    const outcomes: { recorded: RecordedEvent[]; conflict?: number; duplicate?: string }[] = group.map(() => ({ recorded: [] }));
    const byEventId = new Map<string, number>();
    group.forEach((p, i) => p.ids.forEach((id) => byEventId.set(id, i)));
    for (const r of rows) {
      if (r.idx !== null) {
        const o = outcomes[r.idx - 1]!;
        if (r.conflict_version !== null) o.conflict = r.conflict_version;
        if (r.duplicate_id !== null) o.duplicate = r.duplicate_id;
      } else {
        outcomes[byEventId.get(r.event_id)!]!.recorded.push(toEvent(r));
      }
    }
    this.live.appended(rows.filter((r) => r.idx === null).map(toEvent));
    group.forEach((p, i) => {
      const o = outcomes[i]!;
      if (o.conflict !== undefined) p.reject(new ConcurrencyError(p.streamId, String(p.expected), o.conflict));
      else if (o.duplicate !== undefined) p.reject(new DuplicateEventError(o.duplicate));
      else if (o.recorded.length !== p.ids.length) p.reject(new Error(`append to ${p.streamId}: the group's answer has no outcome for it`));
      else p.resolve(resultOf(o.recorded));
    });
  }

  /**
   * One statement, one round trip (ADR 0040): `es.append_events` checks the stream's version,
   * takes the global ordering lock, inserts and notifies server-side, and the statement's own
   * transaction commits at once, so the lock is held from the insert to the commit only.
   */
  private async appendAlone(p: PendingAppend): Promise<void> {
    let rows: (Row & { conflict_version: number | null })[];
    try {
      ({ rows } = await this.pool.query<Row & { conflict_version: number | null }>({
        name: 'es_append_events',
        text: `select ${COLUMNS}, conflict_version from es.append_events($1, $2, $3::jsonb, $4, $5)`,
        values: [p.streamId, p.mode, p.payload, APPEND_LOCK, CHANNEL],
      }));
    } catch (err) {
      if (isUniqueViolation(err, 'events_event_id_key')) {
        return p.reject(new DuplicateEventError(String((err as { detail?: string }).detail?.match(/\(event_id\)=\(([^)]+)\)/)?.[1] ?? '')));
      }
      // A connection lost around the commit leaves the outcome unknown: the 503 says retry, and a
      // retry with the same command id (Idempotency-Key) finds the events if they were stored. A
      // transaction rolled back because of another wrote nothing: the same 503, and logged.
      if (isTransientRollback(err))
        log.error('an append was rolled back because of another transaction', { stream: p.streamId, error: describeError(err) });
      return p.reject(asUnavailable(err));
    }
    const conflict = rows[0]?.conflict_version;
    if (conflict !== null && conflict !== undefined) return p.reject(new ConcurrencyError(p.streamId, String(p.expected), conflict));
    const recorded = resultOf(rows.map(toEvent));
    this.live.appended(recorded.events);
    p.resolve(recorded);
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

  /** One statement: the stream's rows and the event's row (when it is in another stream, or in none). */
  async readStreamAndEvent(streamId: string, eventId: string): Promise<{ stream: RecordedEvent[]; event: RecordedEvent | null }> {
    if (!/^[0-9a-f-]{36}$/i.test(eventId)) return { stream: await this.readStream(streamId), event: null };
    const { rows } = await this.pool
      .query<Row>(`select ${COLUMNS} from es.events where stream_id = $1 or event_id = $2 order by stream_id = $1, stream_version`, [
        streamId,
        eventId,
      ])
      .catch(unavailable);
    const all = rows.map(toEvent);
    const id = eventId.toLowerCase();
    return { stream: all.filter((e) => e.streamId === streamId), event: all.find((e) => e.eventId === id) ?? null };
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
      client.on('notification', (n) => this.notified(Number(n.payload) || undefined));
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
