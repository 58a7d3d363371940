import type { ChangeFeed } from '@tv-shop/platform';

/**
 * Knows how far each projection has got (from the change feed) and lets a write's answer wait
 * until every read model has reached that write's position: read-your-writes.
 */
export class PositionTracker {
  private readonly reached = new Map<string, number>();
  private waiters: { position: number; resolve: (ok: boolean) => void }[] = [];
  private readonly off: () => void;

  constructor(
    feed: ChangeFeed,
    private readonly projections: string[],
  ) {
    this.off = feed.subscribe((n) => {
      if (n.kind !== 'checkpoint') return;
      this.reached.set(n.projection, Math.max(n.position, this.reached.get(n.projection) ?? 0));
      const now = this.position;
      this.waiters = this.waiters.filter((w) => (w.position <= now ? (w.resolve(true), false) : true));
    });
  }

  /** The position every read model has reached. */
  get position(): number {
    if (this.projections.some((p) => !this.reached.has(p))) return 0;
    return Math.min(...this.projections.map((p) => this.reached.get(p)!));
  }

  /** Resolves true once all read models reached `position`, or false after the timeout. */
  waitFor(position: number, timeoutMs = 10_000): Promise<boolean> {
    if (this.position >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const w = { position, resolve };
      this.waiters.push(w);
      setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  close(): void {
    this.off();
    this.waiters.forEach((w) => w.resolve(false));
    this.waiters = [];
  }
}
