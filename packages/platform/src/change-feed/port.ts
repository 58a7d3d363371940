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
 * What projections tell the gateway: a read-model change (with the rooms allowed to see it)
 * or that a projection reached a position. In one process an EventEmitter carries it; in a
 * cluster, Redis (same port, another adapter).
 */
export type ChangeNotice =
  | { kind: 'change'; projection: string; push: PushedChange; rooms: string[] }
  | { kind: 'checkpoint'; projection: string; position: number };

export interface ChangeFeed {
  publish(notices: ChangeNotice[]): Promise<void>;
  subscribe(listener: (notice: ChangeNotice) => void): () => void;
  close(): Promise<void>;
}
