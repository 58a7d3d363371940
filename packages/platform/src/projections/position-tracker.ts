import type { ChangeFeed } from '../change-feed/port';

/**
 * Knows how far each projection has got and lets a write's answer wait until every read model
 * has reached that write's position: read-your-writes. Checkpoint notices arrive on the change
 * feed; while someone waits, the checkpoints are also read from the database now and then, since
 * a feed across processes (Redis pub/sub) may drop a message.
 */
export class PositionTracker {
  private readonly reached = new Map<string, number>();
  private waiters: { position: number; resolve: (ok: boolean) => void }[] = [];
  private readonly off: () => void;
  private polling: NodeJS.Timeout | null = null;

  constructor(
    feed: ChangeFeed,
    private readonly projections: string[],
    private readonly load: () => Promise<Record<string, number>> = async () => ({}),
    private readonly pollMs = 250,
  ) {
    this.off = feed.subscribe((n) => {
      if (n.kind === 'checkpoint') this.advance(n.projection, n.position);
    });
  }

  /** Reads the stored checkpoints (at start, and as the fallback while waiting). */
  async refresh(): Promise<void> {
    for (const [name, position] of Object.entries(await this.load())) this.advance(name, position);
  }

  private advance(projection: string, position: number): void {
    this.reached.set(projection, Math.max(position, this.reached.get(projection) ?? 0));
    const now = this.position;
    this.waiters = this.waiters.filter((w) => (w.position <= now ? (w.resolve(true), false) : true));
    if (this.waiters.length === 0 && this.polling) {
      clearInterval(this.polling);
      this.polling = null;
    }
  }

  /** How far one projection has got, as far as this process knows. */
  reachedBy(projection: string): number {
    return this.reached.get(projection) ?? 0;
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
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      const w = {
        position,
        resolve: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      this.waiters.push(w);
      this.polling ??= setInterval(() => void this.refresh().catch(() => {}), this.pollMs);
      this.polling.unref();
    });
  }

  close(): void {
    this.off();
    if (this.polling) clearInterval(this.polling);
    this.waiters.forEach((w) => w.resolve(false));
    this.waiters = [];
  }
}
