import type pg from 'pg';
import type { Change } from '../change-feed/port';
import type { RecordedEvent } from '../event-store/types';

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
   * Whether a write's answer waits until this read model has it (read-your-writes); yes unless
   * false. A read model only the admin reads, and one that may replay the whole log on its first
   * start, says false: shoppers' writes do not wait for it.
   */
  awaited?: boolean;
}
