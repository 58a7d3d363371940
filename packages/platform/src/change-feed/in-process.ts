import { EventEmitter } from 'node:events';
import type { ChangeFeed, ChangeNotice } from './port';

/** The change feed inside one process: the projector and the gateway share it directly. */
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
