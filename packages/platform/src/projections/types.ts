import type pg from 'pg';
import type { Change } from '../change-feed/port';
import type { RecordedEvent } from '../event-store/types';
import type { KeptRows } from './kept-rows';

export interface ProjectionContext {
  /** The batch's transaction; its search_path is the projection's schema. */
  db: pg.PoolClient;
  /** Announces a read-model change to the given Socket.IO rooms once the batch commits. */
  emit(change: Change, rooms: string[]): void;
  /**
   * True while the log is replayed into tables nobody is told about (a rebuild, a verify): `emit`
   * then goes nowhere, so a handler skips the reads it makes only to announce a change.
   */
  replaying: boolean;
}

// Handlers are keyed by event type; each receives the event it is registered for.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProjectionHandler = (event: RecordedEvent<string, any>, ctx: ProjectionContext) => Promise<void>;

/** What a batch form works with: `ProjectionContext`, with the position of the event a change comes from. */
export interface BatchContext {
  /** The batch's transaction; its search_path is the projection's schema. */
  db: pg.PoolClient;
  /** Announces a read-model change, caused by the event at `position`, once the batch commits. */
  emit(change: Change, rooms: string[], position: number): void;
  /** As in `ProjectionContext`: nobody hears these changes, so nothing needs announcing. */
  replaying: boolean;
  /**
   * A write whose result the batch does not need, run after the batch form returns, in order,
   * in the same transaction; live, in the one round trip that commits the batch (ADR 0047). Its
   * parameters are written into its text as literals (`inlineParams`).
   */
  later(text: string, params?: readonly unknown[]): void;
  /**
   * Live (not replaying): the rows of this projection's tables its committed batches left, kept
   * by the leading runner between batches (ADR 0052); a batch form hands it to its `RowSet`s.
   */
  kept?: KeptRows;
}

/**
 * Applies many events at once, in order, ending with exactly the rows that `handlers` and
 * `everyEvent` run on each event in turn would leave (ADR 0044): typically it reads the rows the
 * events touch once, folds the events into them in memory, and writes each changed row once.
 * When not replaying it announces each changed row once, as of the last event that changed it.
 */
export type BatchHandler = (events: RecordedEvent[], ctx: BatchContext) => Promise<void>;

export interface Projection {
  name: string;
  /** PostgreSQL schema holding this projection's tables; rebuilt and swapped as a whole. */
  schema: string;
  /** DDL creating the tables, run with search_path set to a fresh schema. */
  setup: string;
  handlers: Record<string, ProjectionHandler>;
  /** Runs for every event, after its own handler if it has one (a copy of the whole log, say). */
  everyEvent?: ProjectionHandler;
  /**
   * The same as `handlers` and `everyEvent`, for a whole batch at once: the runner uses it for
   * every batch, live ones (a single event too) and those that replay the log (a rebuild, a
   * verify, a first start) or catch up a long way behind, in thousands. Without it, events are
   * applied one at a time through the handlers.
   */
  applyBatch?: BatchHandler;
  /**
   * Whether a write's answer waits until this read model has it (read-your-writes); yes unless
   * false. A read model only the admin reads, and one that may replay the whole log on its first
   * start, says false: shoppers' writes do not wait for it.
   */
  awaited?: boolean;
}
