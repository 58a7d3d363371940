import {
  DeadlineExceededError,
  END,
  EventStoreDBClient,
  NotLeaderError,
  START,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type CurrentRevision,
  type EventData,
  type JSONType,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import { AppError, ConcurrencyError, DuplicateEventError, databaseUnavailable, isDatabaseUnavailable } from '../errors';
import { uuidFromName } from '../ids';
import { createLogger } from '../log';
import { backoffMs } from '../retry';
import { LiveSubscriptions } from './subscription';
import { validateAppend } from './validate';
import type {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from './types';

/**
 * The event store port on EventStoreDB (docs/adr/0030-eventstoredb-adapter.md).
 *
 * - A position is the event's log position in `$all` (its prepare position, which equals its
 *   commit position for everything written through gRPC appends); `$all` is in commit order,
 *   so a reader by position never finds an event below what it has seen (ADR 0002 for free).
 * - EventStoreDB cannot look an event up by id, so every append first writes a claim to the
 *   stream `_eventid-<eventId>` naming the stream the event goes to. `findEvent` follows the
 *   claims and confirms each in the named stream: a claim whose append failed finds nothing.
 * - Reading and subscribing skip everything that is not a domain stream: system streams (`$…`)
 *   and the claim streams (`_…`), which `validateAppend` keeps domain stream ids from using.
 */

const log = createLogger('event-store.eventstoredb');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Domain stream ids start with a lowercase letter (validate.ts); `$` and `_` streams are not ours to deliver. */
const DOMAIN_STREAM = '^[a-z]';
const DOMAIN_STREAM_RE = new RegExp(DOMAIN_STREAM);
const CLAIM_TYPE = 'EventIdClaimed';

/** The stream holding the claims for one event id. Its `_` start can never be a domain stream id. */
export const eventIdStream = (eventId: string): string => `_eventid-${eventId.toLowerCase()}`;

/** True for events that belong to the domain (what readAll and subscribers see). */
export const isDomainRecord = (streamId: string, type: string): boolean => DOMAIN_STREAM_RE.test(streamId) && !type.startsWith('$');

/** What a claim says: the stream the event goes to, and the lowest version it can have there. */
export interface Claim {
  streamId: string;
  fromVersion: number;
}

/** The fields of an EventStoreDB recorded event this adapter reads; the client's type fits it. */
export interface StoredRecord {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  isJson: boolean;
  created: Date;
  data: unknown;
  metadata: unknown;
  position?: Position;
}

/** A log position as the port's number; refuses what a JavaScript number cannot hold exactly. */
function safeNumber(value: bigint, what: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(`EventStoreDB ${what} ${value} is outside the range a position can hold (0 to 2^53 - 1)`);
  }
  return Number(value);
}

/**
 * The port's position of an event read from a stream. The prepare position is the event's own
 * place in the log, so it is unique even when one append stores several events.
 */
export function eventPosition(position: Position | undefined): number {
  // Servers before 22.6 leave the position off events read from a stream.
  if (!position) throw new Error('EventStoreDB returned an event without its log position (the server must be 22.10 or later)');
  return safeNumber(position.prepare, 'prepare position');
}

/**
 * The port's position of an event read from `$all`. Resuming after it (`afterPosition`) sends
 * {commit: n, prepare: n}, which is only right when both are equal: they are for every event a
 * gRPC append writes, and differ only for the old TCP API's explicit transactions, which would
 * otherwise make a reader skip or repeat events without a word.
 */
export function allPosition(position: Position): number {
  if (position.commit !== position.prepare) {
    throw new Error(
      `EventStoreDB event at commit ${position.commit} / prepare ${position.prepare} was written in an explicit transaction; ` +
        'this adapter needs a store written only through gRPC appends',
    );
  }
  return eventPosition(position);
}

/** Where to start a forward `$all` read so that it begins at position n (reads are inclusive). */
export function afterPosition(n: number): ReadPosition {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`position must be a non-negative integer, got ${n}`);
  // The log's first records are EventStoreDB's own (epoch information), so no domain event is at 0.
  return n === 0 ? START : { commit: BigInt(n), prepare: BigInt(n) };
}

/** The port's expected version as EventStoreDB's expected revision; the string forms are the same words. */
export function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === 'no_stream' || expected === -1) return 'no_stream';
  if (expected === 'any' || expected === 'stream_exists') return expected;
  return BigInt(expected);
}

/** EventStoreDB's current revision in a conflict as the port's version: -1 for no stream. */
export const actualVersion = (current: CurrentRevision): number => (current === 'no_stream' ? -1 : Number(current));

/** EventStoreDB's conflict as the port's typed 409, naming the stream's actual version. */
export const toConcurrencyError = (streamId: string, expected: ExpectedVersion, err: WrongExpectedVersionError): ConcurrencyError =>
  new ConcurrencyError(streamId, String(expected), actualVersion(err.actualVersion));

/** The lowest version the appended events can take: a claim only has to be searched from here. */
export const claimFromVersion = (expected: ExpectedVersion): number => (typeof expected === 'number' ? expected + 1 : 0);

/**
 * The event as EventStoreDB stores it: JSON data, and the port's metadata plus its schema version
 * in the JSON metadata. `$correlationId` / `$causationId` are EventStoreDB's own names for the
 * same ids, so its UI and the `$by_correlation_id` projection can follow a request.
 */
export function toEventData(e: NewEvent): EventData {
  const m = e.metadata;
  return jsonEvent({
    id: e.eventId,
    type: e.type,
    data: e.data as JSONType,
    metadata: {
      ...m,
      schemaVersion: e.schemaVersion ?? 1,
      $correlationId: m.correlationId,
      ...(m.causationId ? { $causationId: m.causationId } : {}),
    },
  });
}

/** A stored event as the port's event; the inverse of `toEventData`. */
export function fromStored(r: StoredRecord): RecordedEvent {
  if (!r.isJson || !r.metadata || typeof r.metadata !== 'object' || r.metadata instanceof Uint8Array) {
    throw new Error(`Event ${r.id} in ${r.streamId} has no JSON metadata: it was not written by this adapter`);
  }
  const metadata: Record<string, unknown> = { ...(r.metadata as Record<string, unknown>) };
  const schemaVersion = metadata.schemaVersion;
  delete metadata.schemaVersion;
  delete metadata.$correlationId;
  delete metadata.$causationId;
  return {
    eventId: r.id.toLowerCase(),
    streamId: r.streamId,
    version: Number(r.revision),
    position: eventPosition(r.position),
    type: r.type,
    schemaVersion: typeof schemaVersion === 'number' ? schemaVersion : 1,
    data: r.data,
    metadata: metadata as unknown as EventMetadata,
    recordedAt: r.created.toISOString(),
  };
}

/** The claim event for one event id. Its id is fixed per (stream, event), so a retried append's claim is deduplicated by EventStoreDB. */
export function claimEvent(eventId: string, claim: Claim): EventData {
  return jsonEvent({
    id: uuidFromName(`claim:${claim.streamId}:${eventId.toLowerCase()}`),
    type: CLAIM_TYPE,
    data: { streamId: claim.streamId, fromVersion: claim.fromVersion },
  });
}

/** A claim's data, or null for anything else found in a claim stream. */
export function parseClaim(r: Pick<StoredRecord, 'type' | 'data'>): Claim | null {
  const d = r.data as Partial<Claim> | null;
  if (r.type !== CLAIM_TYPE || !d || typeof d.streamId !== 'string' || !Number.isInteger(d.fromVersion)) return null;
  return { streamId: d.streamId, fromVersion: d.fromVersion! };
}

/** Failures that mean "EventStoreDB cannot be reached right now": a retry later can succeed. */
export function isEventStoreUnavailable(err: unknown): boolean {
  if (
    err instanceof UnavailableError ||
    err instanceof DeadlineExceededError ||
    err instanceof TimeoutError ||
    // A follower answered a write: the leader moved, and the client reconnects to it.
    err instanceof NotLeaderError
  )
    return true;
  if (err instanceof Error && /Failed to discover after/.test(err.message)) return true;
  return isDatabaseUnavailable(err);
}

/** An outage as the typed 503 (retry later, with the same Idempotency-Key); anything else unchanged. */
const asUnavailable = (err: unknown): unknown =>
  !(err instanceof AppError) && isEventStoreUnavailable(err) ? databaseUnavailable(err) : err;

export interface EventStoreDbEventStoreOptions {
  /** How often a live subscription reads again when the live `$all` subscription says nothing (ms). */
  pollIntervalMs?: number;
  /** Dispose of the client on close: true when the store made the client (`connect`). */
  ownsClient?: boolean;
}

export class EventStoreDbEventStore implements EventStore {
  private readonly live: LiveSubscriptions;
  private doorbell: Promise<void> | null = null;
  private dropDoorbell: (() => void) | null = null;
  private closed = false;

  constructor(
    readonly client: EventStoreDBClient,
    private readonly opts: EventStoreDbEventStoreOptions = {},
  ) {
    this.live = new LiveSubscriptions(this, opts.pollIntervalMs ?? 1000);
  }

  /**
   * A store on the server named by an EventStoreDB connection string (`esdb://host:2113?tls=false`).
   * Reads the head once, so a wrong address or missing rights fail here rather than on first use.
   */
  static async connect(url: string, opts: Omit<EventStoreDbEventStoreOptions, 'ownsClient'> = {}): Promise<EventStoreDbEventStore> {
    const store = new EventStoreDbEventStore(EventStoreDBClient.connectionString(url), { ...opts, ownsClient: true });
    try {
      await store.headPosition();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    validateAppend(streamId, events, expected);
    try {
      const found = await Promise.all(events.map((e) => this.findEvent(e.eventId)));
      const dup = found.findIndex((f) => f !== null);
      if (dup >= 0) throw new DuplicateEventError(events[dup]!.eventId);
      // Claims go first: once the events are stored, findEvent can always reach them. A claim
      // left by an append that then fails is harmless: findEvent confirms claims in the stream.
      const claim: Claim = { streamId, fromVersion: claimFromVersion(expected) };
      await Promise.all(
        events.map((e) => this.client.appendToStream(eventIdStream(e.eventId), claimEvent(e.eventId, claim), { expectedRevision: 'any' })),
      );
      let nextRevision: bigint;
      try {
        const res = await this.client.appendToStream(streamId, events.map(toEventData), { expectedRevision: toExpectedRevision(expected) });
        nextRevision = res.nextExpectedRevision;
      } catch (err) {
        throw err instanceof WrongExpectedVersionError ? toConcurrencyError(streamId, expected, err) : err;
      }
      // The append answers one position for the whole write; reading the events back gives each
      // its own position and stored time, exactly as readStream and readAll will report them.
      const nextVersion = Number(nextRevision);
      const first = nextVersion - events.length + 1;
      const recorded = (await this.readRecords(streamId, first, events.length)).map(fromStored);
      const ids = recorded.map((e) => e.eventId).join();
      if (ids !== events.map((e) => e.eventId.toLowerCase()).join()) {
        throw new Error(`EventStoreDB reported ${streamId} at version ${nextVersion}, but the events there are not the ones appended`);
      }
      return { nextVersion, position: recorded[recorded.length - 1]!.position, events: recorded };
    } catch (err) {
      throw asUnavailable(err);
    }
  }

  async readStream(streamId: string, opts: { fromVersion?: number } = {}): Promise<RecordedEvent[]> {
    return (await this.readRecords(streamId, opts.fromVersion ?? 0)).map(fromStored);
  }

  /** The stored events of a stream from a version on; none when the stream does not exist. */
  private async readRecords(streamId: string, fromVersion: number, maxCount?: number): Promise<StoredRecord[]> {
    const out: StoredRecord[] = [];
    try {
      const read = this.client.readStream(streamId, {
        fromRevision: fromVersion > 0 ? BigInt(fromVersion) : START,
        ...(maxCount ? { maxCount } : {}),
      });
      for await (const r of read) if (r.event) out.push(r.event);
    } catch (err) {
      if (err instanceof StreamNotFoundError) return [];
      throw asUnavailable(err);
    }
    return out;
  }

  /** Reads one page of `$all`, whole: a page is bounded, and ending a gRPC read half-way gains nothing. */
  private async readAllPage(
    fromPosition: ReadPosition,
    maxCount: number,
    direction: 'forwards' | 'backwards',
  ): Promise<AllStreamResolvedEvent[]> {
    const out: AllStreamResolvedEvent[] = [];
    try {
      for await (const r of this.client.readAll({ fromPosition, maxCount, direction })) out.push(r);
    } catch (err) {
      throw asUnavailable(err);
    }
    return out;
  }

  async readAll(from: number, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    // Claims and system events are skipped here, not by the server (reads of $all take no filter
    // in this client), so a page asks for more than the limit: about one claim per domain event.
    const page = Math.min(Math.max(limit * 2 + 1, 64), 4096);
    let cursor = from;
    while (out.length < limit) {
      const records = await this.readAllPage(afterPosition(cursor), page, 'forwards');
      for (const r of records) {
        if (!r.event) continue;
        const position = allPosition(r.event.position);
        // The read starts at the cursor itself; the port's `from` is exclusive.
        if (position <= cursor) continue;
        cursor = position;
        if (isDomainRecord(r.event.streamId, r.event.type)) {
          out.push(fromStored(r.event));
          if (out.length === limit) break;
        }
      }
      if (records.length < page) break;
    }
    return out;
  }

  /** Two reads: EventStoreDB has no query across a stream and the event-id index together. */
  async readStreamAndEvent(streamId: string, eventId: string): Promise<{ stream: RecordedEvent[]; event: RecordedEvent | null }> {
    const [stream, event] = await Promise.all([this.readStream(streamId), this.findEvent(eventId)]);
    return { stream, event };
  }

  /**
   * Follows the claims for the id and confirms each in the stream it names, first claim first.
   * The command handler relies on this for idempotent commands (docs/adr/0007).
   */

  async findEvent(eventId: string): Promise<RecordedEvent | null> {
    if (!UUID.test(eventId)) return null;
    const id = eventId.toLowerCase();
    const claims = new Map<string, number>();
    for (const r of await this.readRecords(eventIdStream(id), 0)) {
      const c = parseClaim(r);
      if (c) claims.set(c.streamId, Math.min(c.fromVersion, claims.get(c.streamId) ?? c.fromVersion));
    }
    for (const [streamId, fromVersion] of claims) {
      const hit = (await this.readRecords(streamId, fromVersion)).find((r) => r.id.toLowerCase() === id);
      if (hit) return fromStored(hit);
    }
    return null;
  }

  /** The position of the last domain event, reading `$all` backwards past claims and system events. */
  async headPosition(): Promise<number> {
    const page = 64;
    let from: ReadPosition = END;
    for (;;) {
      const records = await this.readAllPage(from, page, 'backwards');
      for (const r of records) {
        if (r.event && isDomainRecord(r.event.streamId, r.event.type)) return allPosition(r.event.position);
      }
      const last = records[records.length - 1]?.event;
      if (records.length < page || !last) return 0;
      // A backward read from a position returns what lies strictly before it.
      from = last.position;
    }
  }

  subscribe(opts: SubscribeOptions): Subscription {
    this.ring();
    return this.live.subscribe(opts);
  }

  private wakeAll(): void {
    this.live.wakeAll();
  }

  /**
   * One live `$all` subscription per store, filtered to domain streams, rings every subscription
   * when something is appended; the subscriptions then read `$all` themselves, in pages, from
   * their own position. Delivery never depends on the live stream, so a dropped one costs only
   * latency (polling covers it): it is opened again with capped backoff until the store closes.
   */
  private ring(): void {
    if (this.doorbell || this.closed) return;
    this.doorbell = this.doorbellLoop().finally(() => {
      this.doorbell = null;
    });
  }

  private async doorbellLoop(): Promise<void> {
    let attempt = 0;
    while (!this.closed) {
      let drop!: () => void;
      const lost = new Promise<void>((resolve) => (drop = resolve));
      this.dropDoorbell = drop;
      const live = this.client.subscribeToAll({ fromPosition: END, filter: streamNameFilter({ regex: DOMAIN_STREAM }) });
      // Subscribed: wake everyone once, since appends may have happened while nobody listened.
      live.on('confirmation', () => {
        attempt = 0;
        this.wakeAll();
      });
      live.on('data', () => this.wakeAll());
      live.on('error', (err: Error) => {
        if (!this.closed) log.warn('live $all subscription failed; opening it again', { error: err });
        drop();
      });
      live.on('end', () => drop());
      live.on('close', () => drop());
      await lost;
      await live.unsubscribe().catch(() => {});
      this.dropDoorbell = null;
      if (this.closed) break;
      attempt++;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, backoffMs(attempt));
        this.dropDoorbell = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.live.stopAll();
    this.dropDoorbell?.();
    await this.doorbell;
    if (this.opts.ownsClient) await this.client.dispose();
  }
}
