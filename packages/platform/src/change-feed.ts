import { EventEmitter } from 'node:events';
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

export class InProcessChangeFeed implements ChangeFeed {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  async publish(notices: ChangeNotice[]): Promise<void> {
    for (const n of notices) this.emitter.emit('notice', n);
  }
  subscribe(listener: (notice: ChangeNotice) => void): () => void {
    this.emitter.on('notice', listener);
    return () => this.emitter.off('notice', listener);
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
