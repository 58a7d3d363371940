/** The event store port: what every adapter (PostgreSQL, EventStoreDB) must do. */
export const NO_STREAM = 'no_stream' as const;
export const ANY = 'any' as const;
export const STREAM_EXISTS = 'stream_exists' as const;
/** A stream's version is the 0-based version of its last event; -1 means no stream yet. */
export type ExpectedVersion = number | typeof NO_STREAM | typeof ANY | typeof STREAM_EXISTS;

export interface EventMetadata {
  actorId: string;
  actorRole: string;
  correlationId: string;
  causationId: string | null;
  commandId?: string;
  at: string; // ISO-8601
}

export interface NewEvent<T extends string = string, D = unknown> {
  eventId: string;
  type: T;
  schemaVersion?: number;
  data: D;
  metadata: EventMetadata;
}

export interface RecordedEvent<T extends string = string, D = unknown> {
  eventId: string;
  streamId: string;
  version: number;
  position: number;
  type: T;
  schemaVersion: number;
  data: D;
  metadata: EventMetadata;
  recordedAt: string;
}

export interface AppendResult {
  /** The stream's version after the append. */
  nextVersion: number;
  /** Global position of the last appended event. */
  position: number;
  events: RecordedEvent[];
}

export interface Batch {
  events: RecordedEvent[];
  /** The position the subscriber has now seen everything up to. */
  position: number;
}

export interface SubscribeOptions {
  /** Exclusive: events after this position are delivered. 0 means from the start. */
  from: number;
  /** Who reads (`projection.catalog`, `policy.orders`): a Kafka source's consumer group. */
  name?: string;
  batchSize?: number;
  onBatch: (batch: Batch) => Promise<void>;
  onError?: (err: unknown) => void;
}

export interface Subscription {
  stop(): Promise<void>;
  /** Resolves when everything stored at the time of the call has been delivered. */
  caughtUp(): Promise<void>;
  readonly position: number;
}

/**
 * Where a consumer of the log (a projection, a policy) reads it: the store's own subscription,
 * or the log relayed through Kafka (EVENT_BUS=kafka). Both deliver every event once in global
 * order from an exclusive position; a consumer's checkpoint makes a redelivery harmless.
 */
export interface LogSource {
  subscribe(opts: SubscribeOptions): Subscription;
  headPosition(): Promise<number>;
}

export interface EventStore extends LogSource {
  append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult>;
  readStream(streamId: string, opts?: { fromVersion?: number }): Promise<RecordedEvent[]>;
  /** Events after `from` (exclusive) in global order, at most `limit`. */
  readAll(from: number, limit: number): Promise<RecordedEvent[]>;
  findEvent(eventId: string): Promise<RecordedEvent | null>;
  /**
   * `readStream(streamId)` and `findEvent(eventId)` at once, in one read where the store can:
   * what a command needs first (its stream's history, and whether this command already ran).
   */
  readStreamAndEvent(streamId: string, eventId: string): Promise<{ stream: RecordedEvent[]; event: RecordedEvent | null }>;
  headPosition(): Promise<number>;
  subscribe(opts: SubscribeOptions): Subscription;
  close(): Promise<void>;
}
