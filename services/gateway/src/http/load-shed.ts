import type { RequestHandler } from 'express';
import { AppError } from '@tv-shop/platform';

/**
 * The writes (anything but GET, HEAD and OPTIONS) this process is working on: counted from the
 * request's arrival to its answer (or its connection's close). The load shedding below reads it,
 * and so does the fan-out, which lets writes go first (ADR 0049).
 */
export class WritesInFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.count;
  }

  /** Counts a write in; the answer is its release (idempotent). */
  begin(): () => void {
    this.count += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.count -= 1;
      if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  /** Resolves once no write is in flight, or at `deadline` (performance.now() ms), whichever comes first. */
  async idle(deadline: number): Promise<void> {
    while (this.count > 0) {
      const left = deadline - performance.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== wake);
          resolve();
        }, left);
        // A wait never keeps a stopping process alive.
        timer.unref();
        this.waiters.push(wake);
      });
    }
  }
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/**
 * Graceful overload: at most `limit` writes are worked on at once in this process; one more is
 * refused at once with 503 and `Retry-After` instead of joining a queue in which every write would
 * wait out its timeout. Offered more than the shop can take, it keeps answering what it can take
 * at full speed, and says so to the rest. Every write is counted in `writes`, limit or not.
 */
export function shedWrites(limit: number, retryAfterS = 1, writes = new WritesInFlight()): RequestHandler {
  return (req, res, next) => {
    if (!isWrite(req.method)) return next();
    if (limit > 0 && writes.size >= limit)
      return next(new AppError('unavailable', 'The shop is busy right now; try again in a moment', { retryAfter: retryAfterS }));
    const release = writes.begin();
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}
