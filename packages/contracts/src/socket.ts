import type { DailyActivity, LogEvent } from './audit';
import type { Booking, Product, ReportedProduct, User } from './entities';
import type { View, ViewsAnswer } from './views';

/**
 * Socket.IO pushes. Every push carries the log position its read model reached, so a client
 * can drop stale pushes and ask for what it missed (`catch_up` with its last position).
 */
export type Change =
  | { entity: 'product'; op: 'upsert'; id: string; row: Product }
  /**
   * `sellerId`: whose listing it was, when the gateway knows the row (a view's removal): the web
   * app tells a seller why their listing left wherever they are (ADR 0070).
   */
  | { entity: 'product'; op: 'remove'; id: string; sellerId?: string }
  /** Reported products with their reports, to the admin only. */
  | { entity: 'reported_product'; op: 'upsert'; id: string; row: ReportedProduct }
  | { entity: 'reported_product'; op: 'remove'; id: string }
  | { entity: 'booking'; op: 'upsert'; id: string; row: Booking }
  | { entity: 'booking'; op: 'remove'; id: string }
  | { entity: 'user'; op: 'upsert'; id: string; row: User }
  | { entity: 'user'; op: 'remove'; id: string }
  /** Every event of the log as it is stored, to the admin only (the event log's live tail). */
  | { entity: 'log_event'; op: 'upsert'; id: string; row: LogEvent }
  /** A day's activity figures after an event counted in them, to the admin only (the overview's charts). */
  | { entity: 'daily_activity'; op: 'upsert'; id: string; row: DailyActivity };

export type ChangePush = Change & { position: number };

export interface ServerToClientEvents {
  change: (push: ChangePush) => void;
  /** Sent after a catch-up: the position the client is now current to. */
  synced: (info: { position: number }) => void;
  /**
   * To a socket that subscribed to views (`views`), instead of `change`: the changes of one
   * moment that touch its views, in log order (ADR 0045).
   */
  changes: (pushes: ChangePush[]) => void;
  /** The answer to `views` sent without an acknowledgement (the web app's): as the ack's. */
  views: (answer: ViewsAnswer) => void;
  /**
   * A read model was rebuilt from the log and swapped in (an upgrade, an operator's rebuild):
   * its changes up to `position` were not pushed one by one. Reload the lists, as after a
   * `catch_up` answered with `resync`.
   */
  resync: (info: { position: number }) => void;
}
export interface ClientToServerEvents {
  /**
   * `resync` means the gap is older than the server keeps, or than a read model's rebuild:
   * reload the lists instead. An answer
   * holds at most one page of changes; `more` says there are later ones: ask again from
   * `position` (the last position this page covers). Asking too often closes the socket.
   */
  catch_up: (since: number, ack: (info: CatchUpAnswer) => void) => void;
  /**
   * Narrows this socket to the views it shows (replacing the ones it named before); from then on
   * it gets only their changes, and `catch_up` answers only theirs. See views.ts (ADR 0045).
   * Without `ack`, the answer comes as a `views` event, so the only acknowledgements on the wire
   * stay the `catch_up` answers.
   */
  views: (views: View[], ack?: (answer: ViewsAnswer) => void) => void;
}
export interface CatchUpAnswer {
  position: number;
  changes: ChangePush[];
  resync?: boolean;
  more?: boolean;
}
