import { backoffMs } from '../retry';
import type { Batch, EventStore, SubscribeOptions, Subscription } from './types';

interface Hooks {
  pollIntervalMs: number;
  /** Registers a callback run when the store says something was appended; returns an unsubscribe. */
  onWake: (fn: () => void) => () => void;
}

/**
 * Reads from a checkpoint in batches until it reaches the head, then waits for a wake-up
 * (notification or poll) and reads again. Batches are delivered one at a time, in order;
 * the next read starts after the last delivered position, so nothing is delivered twice.
 * A failed read or batch is retried forever with capped backoff (at most ~2 s apart).
 */
export class CatchUpSubscription implements Subscription {
  private current: number;
  private stopped = false;
  private wake: (() => void) | null = null;
  private readonly loop: Promise<void>;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly unsubscribe: () => void;
  private dirty = false;

  constructor(
    private readonly store: Pick<EventStore, 'readAll' | 'headPosition'>,
    private readonly opts: SubscribeOptions,
    private readonly hooks: Hooks,
  ) {
    this.current = opts.from;
    this.unsubscribe = hooks.onWake(() => {
      this.dirty = true;
      this.wake?.();
    });
    this.loop = this.run();
  }

  get position(): number {
    return this.current;
  }

  private async run(): Promise<void> {
    const size = this.opts.batchSize ?? 500;
    let failures = 0;
    while (!this.stopped) {
      try {
        this.dirty = false;
        const events = await this.store.readAll(this.current, size);
        if (this.stopped) break;
        if (events.length > 0) {
          const batch: Batch = { events, position: events[events.length - 1]!.position };
          await this.opts.onBatch(batch);
          this.current = batch.position;
          failures = 0;
          if (events.length === size) continue;
        }
        this.idleWaiters.splice(0).forEach((r) => r());
        if (this.dirty) continue;
        await this.sleep(this.hooks.pollIntervalMs);
      } catch (err) {
        // Never gives up: the database may be away for a while. The cap keeps it back soon after.
        failures++;
        try {
          this.opts.onError?.(err);
        } catch {
          // A failing error reporter must not end the loop.
        }
        await this.sleep(backoffMs(failures));
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  async caughtUp(): Promise<void> {
    const head = await this.store.headPosition();
    while (!this.stopped && this.current < head) {
      await new Promise<void>((r) => this.idleWaiters.push(r));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    this.wake?.();
    this.idleWaiters.splice(0).forEach((r) => r());
    await this.loop;
  }
}

/**
 * A store's live subscriptions and what wakes them, shared by the adapters: each store has one
 * source of "something was appended" (LISTEN/NOTIFY, EventStoreDB's live `$all`) that calls
 * `wakeAll`, and stops every subscription when it closes.
 */
export class LiveSubscriptions {
  private readonly wakers = new Set<() => void>();
  private readonly subscriptions = new Set<Subscription>();

  constructor(
    private readonly store: Pick<EventStore, 'readAll' | 'headPosition'>,
    private readonly pollIntervalMs: number,
  ) {}

  subscribe(opts: SubscribeOptions): Subscription {
    const sub = new CatchUpSubscription(this.store, opts, {
      pollIntervalMs: this.pollIntervalMs,
      onWake: (fn) => {
        this.wakers.add(fn);
        return () => this.wakers.delete(fn);
      },
    });
    this.subscriptions.add(sub);
    const stop = sub.stop.bind(sub);
    sub.stop = async () => {
      this.subscriptions.delete(sub);
      await stop();
    };
    return sub;
  }

  wakeAll(): void {
    this.wakers.forEach((w) => w());
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }
}
