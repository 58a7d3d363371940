/**
 * A read-model change as browsers receive it. Its exact shapes (which entities, which rows) are
 * the services' vocabulary in packages/contracts; the platform only carries them.
 */
export interface Change {
  entity: string;
  op: 'upsert' | 'remove';
  id: string;
  row?: unknown;
}
export type PushedChange = Change & { position: number };

/**
 * What projections tell the gateway: a read-model change (with the rooms allowed to see it),
 * that a projection reached a position, or that its tables were rebuilt from the log and swapped
 * in (an upgrade, an operator's rebuild): their changes were not announced one by one, so what
 * browsers hold of it may be older than they are. In one process an EventEmitter carries it; in
 * a cluster, Redis (same port, another adapter).
 */
export type ChangeNotice =
  | { kind: 'change'; projection: string; push: PushedChange; rooms: string[] }
  | { kind: 'checkpoint'; projection: string; position: number }
  | { kind: 'rebuilt'; projection: string; position: number };

export interface ChangeFeed {
  publish(notices: ChangeNotice[]): Promise<void>;
  subscribe(listener: (notice: ChangeNotice) => void): () => void;
  close(): Promise<void>;
}
