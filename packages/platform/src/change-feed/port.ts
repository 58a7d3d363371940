import type { ChangePush } from '@tv-shop/contracts';

/**
 * What projections tell the gateway: a read-model change (with the rooms allowed to see it)
 * or that a projection reached a position. In one process an EventEmitter carries it; in a
 * cluster, Redis (same port, another adapter).
 */
export type ChangeNotice =
  { kind: 'change'; projection: string; push: ChangePush; rooms: string[] } | { kind: 'checkpoint'; projection: string; position: number };

export interface ChangeFeed {
  publish(notices: ChangeNotice[]): Promise<void>;
  subscribe(listener: (notice: ChangeNotice) => void): () => void;
  close(): Promise<void>;
}
