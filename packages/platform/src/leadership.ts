import type pg from 'pg';
import { dedicatedClient } from './db/database';
import { describeError } from './errors';
import { backoffMs } from './retry';

export type LeaderRole = 'leader' | 'standby' | 'stopped';

/**
 * Work that one process of many does at a time (a projection, the Kafka relay): the leader holds
 * a session advisory lock on a connection of its own; the others stand by and try again every
 * `standbyRetryMs`. If the lock's connection drops, PostgreSQL releases the lock and a standby
 * takes over (the connection asks the server to notice a vanished peer within seconds).
 *
 * The first attempt's failure is thrown to the caller of `start()` (a process that cannot start
 * says so). Once started, any failure (the lock's connection lost, a refused reconnect, the work
 * itself failing) stops the attempt and starts it over after a capped backoff (~2 s at most),
 * forever, until `stop()`. Each (re)start is a numbered attempt: callbacks of an older attempt
 * check `isCurrent(attempt)` and do nothing.
 *
 * The backoff grows with failures in a row. `lead()` returning is not a success: it may only
 * have started the work (the relay's subscription), whose first step then fails every time (an
 * event the broker refuses). A failure counts as a first one again only once the work said it
 * got somewhere (`progressed`), or once the attempt had led for `steadyMs`.
 */
export abstract class LeaderElected {
  protected role: LeaderRole = 'stopped';
  protected lastError: string | null = null;
  protected closed = true;
  private attempt = 0;
  private failures = 0;
  /** When the current attempt's `lead()` returned (performance.now()); null while it has not. */
  private ledSince: number | null = null;
  private lock: pg.Client | null = null;
  private standby: NodeJS.Timeout | null = null;
  private restarting: NodeJS.Timeout | null = null;
  private halting: Promise<void> = Promise.resolve();

  protected constructor(
    private readonly leadership: {
      pool: pg.Pool;
      /** The advisory lock's name: one leader per key. */
      lockKey: string;
      standbyRetryMs?: number | undefined;
      /** Says what failed and when it starts again. */
      warn: (message: string, extra: { error: string }) => void;
      /** How the work names itself in that message ("projection catalog"). */
      label: string;
      /** How long an attempt must have led for its failure to count as a first one again (10 s). */
      steadyMs?: number | undefined;
    },
  ) {}

  /** The work, once this process holds the lock; a failure (thrown, or reported with `failed`) restarts it. */
  protected abstract lead(attempt: number): Promise<void>;
  /** Stops what `lead` started (its subscription, its producer), waiting for work in flight. */
  protected abstract release(): Promise<void>;

  protected isCurrent(attempt: number): boolean {
    return attempt === this.attempt;
  }

  /** The work of attempt `attempt` got somewhere (the relay published a batch): its next failure is a first one again. */
  protected progressed(attempt: number): void {
    if (this.isCurrent(attempt)) this.failures = 0;
  }

  async start(): Promise<void> {
    this.closed = false;
    const attempt = ++this.attempt;
    try {
      await this.begin(attempt);
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.attempt++;
    this.ledSince = null;
    if (this.restarting) clearTimeout(this.restarting);
    this.restarting = null;
    await this.halting;
    await this.halt();
  }

  private async begin(attempt: number): Promise<void> {
    const lock = dedicatedClient(this.leadership.pool, (err) => this.failed(attempt, err));
    // An 'end' without an error (the server closed the socket) also loses the lock.
    lock.on('end', () => this.failed(attempt, new Error('the leader connection ended')));
    this.lock = lock;
    await lock.connect();
    if (!this.isCurrent(attempt)) return;
    this.role = 'standby';
    await this.tryToLead(attempt);
  }

  private async tryToLead(attempt: number): Promise<void> {
    if (!this.lock || !this.isCurrent(attempt)) return;
    const { rows } = await this.lock.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [this.leadership.lockKey]);
    if (!this.isCurrent(attempt)) return;
    if (!rows[0]?.ok) {
      this.failures = 0;
      this.standby = setTimeout(
        () => void this.tryToLead(attempt).catch((err: unknown) => this.failed(attempt, err)),
        this.leadership.standbyRetryMs ?? 2000,
      );
      this.standby.unref();
      return;
    }
    this.role = 'leader';
    await this.lead(attempt);
    // Not a success yet (see the class comment): only the time it has led from here on counts.
    if (this.isCurrent(attempt)) this.ledSince = performance.now();
  }

  /** Something in attempt `attempt` broke: drop it and start over after a backoff. */
  protected failed(attempt: number, err: unknown): void {
    if (!this.isCurrent(attempt) || this.closed) return;
    const steady = this.ledSince !== null && performance.now() - this.ledSince >= (this.leadership.steadyMs ?? 10_000);
    this.ledSince = null;
    this.attempt++;
    this.failures = steady ? 1 : this.failures + 1;
    this.lastError = describeError(err);
    const delay = backoffMs(this.failures);
    this.leadership.warn(`${this.leadership.label} lost its connection or failed; restarting in ${delay} ms`, { error: this.lastError });
    this.halting = this.halt();
    this.restarting = setTimeout(() => void this.restart(), delay);
    this.restarting.unref();
  }

  private async restart(): Promise<void> {
    this.restarting = null;
    await this.halting;
    if (this.closed) return;
    const attempt = ++this.attempt;
    try {
      await this.begin(attempt);
    } catch (err) {
      this.failed(attempt, err);
    }
  }

  /** Stops this attempt: its standby timer, its work, then its lock connection. */
  private async halt(): Promise<void> {
    if (this.standby) clearTimeout(this.standby);
    this.standby = null;
    await this.release();
    const lock = this.lock;
    this.lock = null;
    this.role = 'stopped';
    await lock?.end().catch(() => {});
  }
}
