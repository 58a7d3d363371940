import { backoffMs } from '../retry';
import type { Batch, EventStore, RecordedEvent, SubscribeOptions, Subscription } from './types';

interface Hooks {
  pollIntervalMs: number;
  /** Registers a callback run when the store says something was appended; returns an unsubscribe. */
  onWake: (fn: () => void) => () => void;
  /**
   * Reads the log after `from` (at most `limit` events) with a read that started after wake-up
   * number `since` (`SharedTail`); without it, the store's own readAll.
   */
  read?: (from: number, limit: number, since: number) => Promise<RecordedEvent[]>;
  /** How many wake-ups there have been; `fresh` counts one more (a poll: a notification may have been lost). */
  generation?: (fresh: boolean) => number;
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
    // A read after a poll or a failure must be a new one: it is there to find what no
    // notification announced.
    let fresh = true;
    while (!this.stopped) {
      try {
        this.dirty = false;
        const { read, generation } = this.hooks;
        const events =
          read && generation ? await read(this.current, size, generation(fresh)) : await this.store.readAll(this.current, size);
        fresh = false;
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
        fresh = !(await this.sleep(this.hooks.pollIntervalMs));
      } catch (err) {
        // Never gives up: the database may be away for a while. The cap keeps it back soon after.
        failures++;
        try {
          this.opts.onError?.(err);
        } catch {
          // A failing error reporter must not end the loop.
        }
        await this.sleep(backoffMs(failures));
        fresh = true;
      }
    }
  }

  /** Resolves true when woken, false when the time ran out. */
  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      this.wake = () => {
        this.wake = null;
        clearTimeout(t);
        resolve(true);
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

/** At most this many recent events are kept for the subscriptions at the log's tail to share. */
const TAIL_EVENTS = 5000;

/**
 * The recent end of the log as one read of it, shared by every live subscription of a store
 * (ADR 0047). The subscriptions near the head all read the same new events after each
 * notification; without this, each would fetch them from the database on its own (the shop has
 * four projections and two policies in one process: six reads of every append).
 *
 * It keeps the events of one range of positions, (lo, hi], complete: every event that will ever
 * have a position in it is there (a read by position never skips, ADR 0002, so nothing can
 * appear later below a position a read has seen). A read from a position inside it is answered
 * from it when it has `limit` events there, or when the newest read that found nothing beyond
 * `hi` started after the wake-up the reader is answering (`since`): any read started then would
 * have answered the same. Otherwise one read of the events after `hi`, shared by everyone waiting
 * for it, extends the range. A reader outside the range (a catch-up far behind) reads the store
 * itself.
 */
export class SharedTail {
  private events: RecordedEvent[] = [];
  private lo = -1;
  private hi = -1;
  /** The wake-up count when the read that found nothing after `hi` started; -1: unknown. */
  private hiSince = -1;
  private extending: { since: number; done: Promise<void> } | null = null;

  constructor(
    private readonly readAll: (from: number, limit: number) => Promise<RecordedEvent[]>,
    private readonly generation: () => number,
    private readonly keep = TAIL_EVENTS,
  ) {}

  /** Whether every event up to `position` is kept (or was, before it was dropped as old). */
  covers(position: number): boolean {
    return this.hi >= 0 && position <= this.hi;
  }

  /**
   * Events this process has just appended and committed, in position order. They join the range
   * only when they follow its end directly (their first position is `hi + 1` and they are
   * consecutive): then no other event can have a position among theirs, and the range stays
   * complete without a read. Otherwise (another writer's events, a gap left by a failed append)
   * they are left to the next read.
   */
  offer(events: RecordedEvent[]): boolean {
    if (this.hi < 0 || events.length === 0) return false;
    if (events[0]!.position !== this.hi + 1) return false;
    for (let i = 1; i < events.length; i++) if (events[i]!.position !== events[i - 1]!.position + 1) return false;
    this.events.push(...events);
    this.hi = events[events.length - 1]!.position;
    this.trim();
    return true;
  }

  /** Drops the oldest events once there are a quarter more than it keeps (not one by one: each drop moves the array). */
  private trim(): void {
    if (this.events.length <= this.keep + (this.keep >> 2)) return;
    const dropped = this.events.splice(0, this.events.length - this.keep);
    this.lo = dropped[dropped.length - 1]!.position;
  }

  async read(from: number, limit: number, since: number): Promise<RecordedEvent[]> {
    for (;;) {
      if (this.hi < 0 || from < this.lo || from > this.hi) {
        if (this.hi >= 0) return this.readAll(from, limit);
        // Nothing kept yet: this read starts the range.
        await this.extend(since, from);
        continue;
      }
      const kept = this.after(from, limit);
      if (kept.length === limit || this.hiSince >= since) return kept;
      await this.extend(since);
    }
  }

  /** Up to `limit` kept events after `from`. */
  private after(from: number, limit: number): RecordedEvent[] {
    let a = 0;
    let b = this.events.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (this.events[m]!.position <= from) a = m + 1;
      else b = m;
    }
    return this.events.slice(a, a + limit);
  }

  /** Waits for a read of what follows `hi` that started at wake-up `since` or later; starts one if none is under way. */
  private async extend(since: number, start?: number): Promise<void> {
    while (this.extending) {
      const { since: s, done } = this.extending;
      await done;
      if (s >= since) return;
    }
    // The range was started meanwhile: the caller looks at it again rather than start it anew
    // (which would drop what joined it since).
    if (start !== undefined && this.hi >= 0) return;
    const startedAt = this.generation();
    const after = start ?? this.hi;
    const done = this.readAll(after, this.keep).then((events) => {
      if (start !== undefined) {
        this.lo = start;
        this.hi = start;
        this.events = [];
      }
      // Events this process appended may have joined meanwhile (`offer`): the read's are a
      // complete run after `after`, so those past `hi` continue the range.
      const fresh = after === this.hi ? events : events.filter((e) => e.position > this.hi);
      this.events.push(...fresh);
      if (fresh.length > 0) this.hi = fresh[fresh.length - 1]!.position;
      // A full read may have stopped short of the head: the next reader looks again.
      this.hiSince = events.length < this.keep ? startedAt : -1;
      this.trim();
    });
    this.extending = { since: startedAt, done };
    try {
      await done;
    } finally {
      if (this.extending?.done === done) this.extending = null;
    }
  }
}

/**
 * A store's live subscriptions and what wakes them, shared by the adapters: each store has one
 * source of "something was appended" (LISTEN/NOTIFY, EventStoreDB's live `$all`) that calls
 * `wakeAll`, and stops every subscription when it closes. Their reads near the head go through
 * one `SharedTail`.
 */
export class LiveSubscriptions {
  private readonly wakers = new Set<() => void>();
  private readonly subscriptions = new Set<Subscription>();
  private wakeUps = 0;
  private readonly tail: SharedTail;

  constructor(
    private readonly store: Pick<EventStore, 'readAll' | 'headPosition'>,
    private readonly pollIntervalMs: number,
  ) {
    this.tail = new SharedTail(
      (from, limit) => store.readAll(from, limit),
      () => this.wakeUps,
    );
  }

  subscribe(opts: SubscribeOptions): Subscription {
    const sub = new CatchUpSubscription(this.store, opts, {
      pollIntervalMs: this.pollIntervalMs,
      onWake: (fn) => {
        this.wakers.add(fn);
        return () => this.wakers.delete(fn);
      },
      read: (from, limit, since) => this.tail.read(from, limit, since),
      generation: (fresh) => (fresh ? ++this.wakeUps : this.wakeUps),
    });
    this.subscriptions.add(sub);
    const stop = sub.stop.bind(sub);
    sub.stop = async () => {
      this.subscriptions.delete(sub);
      await stop();
    };
    return sub;
  }

  /**
   * Something was appended (up to `position`, when the source says). Counted as a wake-up before
   * anyone is woken, so that their next reads start after it; unless the shared tail already
   * holds everything up to that position (this process appended it: `appended`), when what they
   * read from it is as new as any read would be.
   */
  wakeAll(position?: number): void {
    if (position === undefined || !this.tail.covers(position)) this.wakeUps++;
    this.wakers.forEach((w) => w());
  }

  /** Events this process appended and committed: the subscriptions get them without a read when they follow the shared tail's end. */
  appended(events: RecordedEvent[]): void {
    const sorted = [...events].sort((a, b) => a.position - b.position);
    if (this.tail.offer(sorted)) this.wakers.forEach((w) => w());
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }
}
