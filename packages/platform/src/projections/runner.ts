import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { ChangeFeed, ChangeNotice } from '../change-feed/port';
import { withClient, withTransaction } from '../db/database';
import { inlineParams, quote, sqlPosition } from '../db/sql-text';
import { AppError, describeError } from '../errors';
import { backoffMs } from '../retry';
import { LeaderElected, type LeaderRole } from '../leadership';
import type { LogSource, EventStore, RecordedEvent, Subscription } from '../event-store/types';
import {
  CHECKPOINT_MOVED,
  SCHEMA_SWAPPED,
  lastChanges,
  lockCheckpoint,
  markRebuilt,
  openCheckpoint,
  touchCheckpoint,
  reachedCheckpoint,
  readCheckpoint,
  recordHandles,
  setCheckpoint,
  waitForCheckpoint,
} from './checkpoints';
import { KeptRows } from './kept-rows';
import type { Projection, ProjectionContext } from './types';
import { compareSchemas, type VerifyOptions, type VerifyProgress, type VerifyResult } from './verify';

export * from './verify';

export interface RunnerOptions {
  /** Where the live events come from: the store's subscription (default), or Kafka. */
  source?: LogSource;
  batchSize?: number;
  /**
   * Events read and applied per transaction when replaying the log (a rebuild, a verify) or
   * catching up a long way behind (default 5,000): with the projection's batch form, each
   * touched row is then written once per batch (ADR 0044).
   */
  bulkSize?: number;
  /** Whether batches use the projection's batch form when it has one (default true; false: its handlers, one event at a time). */
  bulk?: boolean;
  /** How far behind the log (in positions) a starting projection catches up in bulk batches first (default 1,000). */
  catchUpInBulk?: number;
  /**
   * Whether a start that finds its tables at position 0 (a first start, a fill cut short) at
   * least `catchUpInBulk` behind the log fills them as a rebuild does, beside the live ones and
   * with the secondary indexes built after, then swaps them in (default true; ADR 0068). False:
   * it catches up in the live tables.
   */
  firstStartAsRebuild?: boolean;
  /**
   * A live batch starts at least this long after the one before it started, gathering what the
   * log brings meanwhile (ADR 0052): default 100 ms for a read model no write waits for
   * (`awaited: false`), 0 for the others. A quiet log's lone event waits for nothing.
   */
  gatherMs?: number;
  standbyRetryMs?: number;
  /** How long a checkpoint reached by quiet batches waits to be stored (QUIET_STORE_MS). */
  quietStoreMs?: number;
  log?: (msg: string, extra?: unknown) => void;
}

export interface ProjectionStatus {
  name: string;
  position: number;
  lag: number;
  error: string | null;
  /** Only one runner per projection applies events; the others stand by to take over. */
  role: LeaderRole;
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
const ident = (s: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(s)) throw new Error(`bad identifier ${s}`);
  return `"${s}"`;
};

/** A projection at least this far behind the log when it starts catches up in bulk batches first. */
const CATCH_UP_IN_BULK = 1000;

/** How long a checkpoint reached by batches with nothing for the projection waits to be stored with a later batch. */
const QUIET_STORE_MS = 100;

/** Statements `open` sends before a batch's own (begin, search_path, synchronous_commit, the checkpoint's move). */
const OPENING_STATEMENTS = 4;

/**
 * The client, but its first query goes in one round trip with what `open` answers (then null):
 * the statement's parameters are written into its text (`inlineParams`), and the answer is its
 * own (the results of the opening statements left out).
 */
function openingWithFirstQuery(client: pg.PoolClient, open: () => string | null): pg.PoolClient {
  const query = async (text: string, params?: unknown[]) => {
    const opening = open();
    if (opening === null) return client.query(text, params);
    const results = (await client.query(`${opening}\n;\n${inlineParams(text, params)}`)) as unknown as pg.QueryResult[];
    const own = results.slice(OPENING_STATEMENTS);
    return own.length === 1 ? own[0] : own;
  };
  return new Proxy(client, { get: (target, key): unknown => (key === 'query' ? query : Reflect.get(target, key, target)) });
}

/**
 * Keeps one projection's tables in step with the log. Each batch's row changes and the new
 * checkpoint commit in ONE transaction, so a crash anywhere loses nothing and applies nothing
 * twice; the checkpoint update is guarded by its old value, so two runners cannot both apply.
 */
export class ProjectionRunner extends LeaderElected {
  private sub: Subscription | null = null;
  /** The position the read model reflects (what this runner announces). */
  private current = 0;
  /** The checkpoint as stored; behind `current` while a run of batches with nothing for it waits to be stored. */
  private stored = 0;
  private storing: NodeJS.Timeout | null = null;
  /** Stores of quiet batches that failed in a row (their retries back off). */
  private storeFailures = 0;
  /** The leadership attempt this runner's state belongs to. */
  private leading = -1;
  private queue: Promise<unknown> = Promise.resolve();
  /** The rows its committed live batches left, while this attempt leads and they all commit (ADR 0052). */
  private readonly kept = new KeptRows();
  /** The oid of the schema the kept rows were read from; null: not known yet (nothing is kept). */
  private keptSchema: number | null = null;
  /** When the last live batch was taken (performance.now()); `gatherMs` counts from it. */
  private lastTaken = -Infinity;
  /**
   * Where the events delivered to it so far end: the next batch starts after it. Above `current`
   * only when the checkpoint was moved back beneath it (a rebuild's swap in another process).
   */
  private delivered = 0;
  /** Whether this attempt's first batch is still to come (see `applyLive`). */
  private firstBatch = true;

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: EventStore,
    private readonly feed: ChangeFeed,
    readonly projection: Projection,
    private readonly opts: RunnerOptions = {},
  ) {
    // Several processes may host the projector; one applies (LeaderElected). The guarded
    // checkpoint keeps an old leader that has not noticed it lost the lock from applying more.
    super({
      pool,
      lockKey: `projection:${projection.name}`,
      standbyRetryMs: opts.standbyRetryMs,
      label: `projection ${projection.name}`,
      warn: (message, extra) => opts.log?.(message, extra),
    });
  }

  get name(): string {
    return this.projection.name;
  }
  get position(): number {
    return this.current;
  }

  /** Leading: tables made (or rebuilt when their definition changed), then the log from the checkpoint. */
  protected async lead(attempt: number): Promise<void> {
    const { name, schema } = this.projection;
    const live = await this.liveDefinition();
    let swapped = false;
    // A fill stops between chunks once this attempt lost the lead; another process (or a rebuild
    // from the tool) waits for the rebuild lock, and then finds the tables filled. Each chunk
    // also tells the checkpoints table it is alive, so health does not call it stalled.
    const ours = () => this.isCurrent(attempt);
    const fill = () => this.fillBeside({ ours, onProgress: () => void touchCheckpoint(this.pool, name).catch(() => {}) });
    // Tables made from another definition (an upgrade added a column) are rebuilt from the log,
    // beside the old ones, which are read meanwhile (as they were) and then replaced in one swap.
    if (live === undefined) {
      await this.createTables(schema);
      await setCheckpoint(this.pool, name, 0);
    } else if (live !== this.definition) {
      this.opts.log?.(`projection ${name}: its table definition changed; rebuilding it from the log beside the old tables`);
      await this.rebuilding(async () => {
        if ((await this.liveDefinition()) === this.definition) return;
        await this.swapIn(await fill(), ours);
        swapped = true;
      });
      if (!this.isCurrent(attempt)) return;
    }
    // Tables at position 0 a long way behind the log (a first start, or one whose fill was cut
    // short) are filled as a rebuild: beside them, their secondary indexes built after, then
    // swapped in (ADR 0068). At 0 they hold nothing (a batch's rows commit with its checkpoint).
    if (!swapped && (this.opts.firstStartAsRebuild ?? true) && (await openCheckpoint(this.pool, name)) === 0 && (await this.farBehind(0))) {
      this.opts.log?.(`projection ${name}: at position 0, the log a long way ahead; filling its tables as a rebuild`);
      await this.rebuilding(async () => {
        // The rebuild tool got there first: the tables are filled already.
        if ((await openCheckpoint(this.pool, name)) > 0) return;
        await this.swapIn(await fill(), ours);
        swapped = true;
      });
      if (!this.isCurrent(attempt)) return;
    }
    const position = await openCheckpoint(this.pool, name);
    if (!this.isCurrent(attempt)) return;
    this.current = this.stored = this.delivered = position;
    this.firstBatch = true;
    this.forgetKept();
    this.leading = attempt;
    this.storeFailures = 0;
    this.lastError = null;
    // What it applies, so that the database can tell how far its read model is when the
    // checkpoint is stored behind it (ADR 0048).
    await recordHandles(this.pool, name, this.handles);
    if (!this.isCurrent(attempt)) return;
    // The last batch's changes again: a runner killed after its commit and before its
    // announcement would otherwise leave open browsers without them (they take a change twice
    // as once). The feed (Redis) may be down while the database is fine: that must not stop it.
    // Tables it rebuilt were filled without announcing their changes: browsers read them again
    // (announced at once here; gateways also find the swap in the checkpoints table, ADR 0065).
    const unannounced = await lastChanges<ChangeNotice>(this.pool, name);
    const rebuilt: ChangeNotice[] = swapped ? [{ kind: 'rebuilt', projection: name, position: this.current }] : [];
    await this.feed
      .publish([...unannounced, ...rebuilt, { kind: 'checkpoint', projection: name, position: this.current }])
      .catch((err: unknown) => this.opts.log?.(`projection ${name} could not announce its checkpoint`, { error: err }));
    if (!this.isCurrent(attempt)) return;
    await this.catchUp(attempt);
    if (!this.isCurrent(attempt)) return;
    this.sub = (this.opts.source ?? this.store).subscribe({
      name: `projection.${name}`,
      from: this.current,
      batchSize: this.liveBatchSize,
      onBatch: async (batch) => {
        await this.gather(batch.events.length);
        return this.exclusive(() => this.applyLive(batch.events));
      },
      onError: (err) => {
        this.lastError = describeError(err);
        this.opts.log?.(`projection ${name} failed a batch; retrying`, { error: this.lastError });
      },
    });
    // Its checkpoint read, its tables checked and the log caught up on: the work got somewhere, so
    // a fault after this is a first one again, restarted at once (ADR 0009's ~2 s at most).
    this.progressed(attempt);
  }

  /** The most events a live batch holds. */
  private get liveBatchSize(): number {
    return this.opts.batchSize ?? 500;
  }

  /** Forgets the kept rows and the schema they were read from (ADR 0052). */
  private forgetKept(): void {
    this.kept.clear();
    this.keptSchema = null;
  }

  /**
   * Before a live batch of `size` events: waits out what is left of `gatherMs` since the last
   * one was taken; the subscription reads nothing meanwhile, so the next batch holds what
   * arrived. Under load, a read model nobody waits for (the audit log) then commits a batch
   * every 100 ms or so rather than one per write or two, which costs the database and this
   * process a fraction per event. A full batch (the runner is behind) does not wait.
   */
  private async gather(size: number): Promise<void> {
    const gatherMs = this.opts.gatherMs ?? (this.projection.awaited === false ? 100 : 0);
    const left = this.lastTaken + gatherMs - performance.now();
    if (left > 0 && size < this.liveBatchSize) await new Promise((resolve) => setTimeout(resolve, left));
    this.lastTaken = performance.now();
  }

  /** Stops this attempt's subscription, waiting for a batch in flight. */
  protected async release(): Promise<void> {
    const sub = this.sub;
    this.sub = null;
    await sub?.stop();
    await this.queue.catch(() => {});
    if (this.storing) clearTimeout(this.storing);
    this.storing = null;
    // Stopped (not failed), what quiet batches reached is stored first, bounded: a stop must not
    // hang on a silent server. Should it fail, come too late or not be tried (after a failure),
    // the next leader passes over the same events again, with nothing to apply; a late store
    // changes nothing here (`storeReached`).
    if (!this.closed || this.role !== 'leader') return;
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([
      this.exclusive(() => this.storeReached()).catch(() => {}),
      new Promise((resolve) => (bound = setTimeout(resolve, 2000))),
    ]);
    clearTimeout(bound);
  }

  /** Resolves once the projection has applied everything stored when it was called. */
  async caughtUp(): Promise<void> {
    const head = await this.store.headPosition();
    while (this.current < head) {
      if (!this.sub) throw new Error(`projection ${this.name} is not leading here`);
      const at = this.current;
      await this.sub.caughtUp();
      // The subscription is at the head but this runner is not (its checkpoint was moved back
      // and the gap is being applied): waits a moment rather than asking again at once.
      if (this.current === at) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async status(head?: number): Promise<ProjectionStatus> {
    const h = head ?? (await this.store.headPosition());
    let position = this.current;
    if (this.role !== 'leader') position = await reachedCheckpoint(this.pool, this.name);
    return { name: this.name, position, lag: Math.max(0, h - position), error: this.lastError, role: this.role };
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * A long way behind the log (a first start, after downtime): applies it in bulk batches, each
   * with its checkpoint and announcements as a live batch, until the live subscription can take
   * over. Only over the store: a Kafka source delivers from its own consumer group's offsets.
   */
  private async catchUp(attempt: number): Promise<void> {
    const head = await this.farBehind(this.current);
    if (head === null) return;
    const from = this.current;
    let shown = Date.now();
    for await (const events of this.chunks(this.current, head)) {
      if (!this.isCurrent(attempt)) return;
      await this.exclusive(() => this.applyLive(events));
      if (Date.now() - shown > 5000) {
        shown = Date.now();
        this.opts.log?.(`projection ${this.name} catching up: ${this.current - from} of ${head - from} positions applied`);
      }
    }
  }

  /**
   * The log's head when it is at least `catchUpInBulk` positions after `from` and the runner can
   * apply it in bulk (it has a batch form, and reads the store, not Kafka); else null.
   */
  private async farBehind(from: number): Promise<number | null> {
    if (this.opts.source || !this.bulkForm) return null;
    const head = await this.store.headPosition();
    return head - from >= (this.opts.catchUpInBulk ?? CATCH_UP_IN_BULK) ? head : null;
  }

  /** The projection's batch form, unless switched off. */
  private get bulkForm() {
    return this.opts.bulk === false ? undefined : this.projection.applyBatch;
  }

  /**
   * The log after `from` up to `until`, in chunks of `bulkSize` events; the next chunk is read
   * while the caller applies this one.
   */
  private async *chunks(from: number, until: number): AsyncGenerator<RecordedEvent[]> {
    const size = this.opts.bulkSize ?? 5000;
    const read = (after: number) => {
      const reading = this.store.readAll(after, size);
      reading.catch(() => {}); // awaited below; an abandoned read must not go unhandled
      return reading;
    };
    let next = read(from);
    for (;;) {
      const events = (await next).filter((e) => e.position <= until);
      if (events.length === 0) return;
      const last = events[events.length - 1]!.position;
      next = last < until ? read(last) : Promise.resolve([]);
      yield events;
    }
  }

  /**
   * One live (or catch-up) batch: its row changes and the checkpoint in one transaction, then its
   * announcements. Every batch, a lone event's too, uses the projection's batch form when it has
   * one, so a busy log costs a few statements per batch rather than per event, and any batch two
   * round trips at most (ADR 0047); one when the rows it reads are kept (ADR 0052). A batch with
   * nothing for this projection only moves its checkpoint.
   */
  private async applyLive(all: RecordedEvent[]): Promise<void> {
    // A source that resumes from a place of its own (a Kafka consumer group's offsets) may start
    // past the checkpoint, when that was moved back while nobody led: what comes before its first
    // batch counts as delivered, and is read from the log below if the read model lacks it.
    if (this.firstBatch && all.length > 0) {
      this.firstBatch = false;
      this.delivered = Math.max(this.delivered, all[0]!.position - 1);
    }
    // The checkpoint was moved back beneath what was delivered (a swap elsewhere, its tables as
    // of an earlier position): the events between are read from the log again and applied first,
    // or the next batch would be applied on top of them and they would be passed over.
    if (this.current < this.delivered) {
      for await (const gap of this.chunks(this.current, this.delivered)) await this.applyEvents(gap);
    }
    await this.applyEvents(all);
    const last = all.at(-1)?.position ?? 0;
    if (last > this.delivered) this.delivered = last;
  }

  private async applyEvents(all: RecordedEvent[]): Promise<void> {
    // After a rebuild the checkpoint may be ahead of what the subscription re-reads.
    const events = all.filter((e) => e.position > this.current);
    if (events.length === 0) return;
    const to = events[events.length - 1]!.position;
    // Over Kafka, the consumer's offset moves on once the batch is taken: the checkpoint must be
    // stored by then (log-source.ts), so there every batch has its transaction.
    if (!this.opts.source && !this.handlesAny(events)) {
      // Nothing here changes the read model: it already reflects `to`. That is announced now
      // (a write waiting for its read models need not wait for a transaction that writes nothing)
      // and the checkpoint stored with the next batch that has something, or a moment later
      // (ADR 0048). A crash before then only passes over these events again.
      this.current = to;
      this.lastError = null;
      this.storeSoon();
      await this.feed.publish([{ kind: 'checkpoint', projection: this.name, position: to }]);
      return;
    }
    const notices: ChangeNotice[] = [];
    const { schema } = this.projection;
    if (this.keptSchema === null) this.keptSchema = await this.schemaOid();
    const keptSchema = this.keptSchema;
    await withClient(this.pool, async (client) => {
      // The transaction is opened, pointed at the tables and its checkpoint moved (guarded by its
      // old value: if someone else moved it, an offline rebuild say, it fails and nothing is
      // applied) in the round trip of the batch's first statement. Its commit need not wait for
      // the WAL to reach the disk: a batch lost in a crash of the database server goes with its
      // checkpoint (one transaction) and is applied again from the log, which every append
      // commits durably.
      // The schema is still the one the kept rows were read from (ADR 0052): a rebuild's swap
      // fails the batch here even when it left the checkpoint where this runner had it.
      let opening: string | null = `begin; set local search_path to ${ident(schema)}, public; set local synchronous_commit to off;
        select public.advance_checkpoint(${quote(this.name)}, ${sqlPosition(this.stored)}, ${sqlPosition(to)}),
               public.assert_schema(${quote(schema)}, ${keptSchema}::oid)`;
      const open = () => {
        const sql = opening;
        opening = null;
        return sql;
      };
      try {
        const writes: string[] = [];
        await this.applyBatch(openingWithFirstQuery(client, open), schema, events, notices, true, true, writes);
        const changes = notices.filter((n) => n.kind === 'change');
        // What the batch announces is kept with it, to be announced again after a crash. The batch
        // form's writes, that and the commit: one round trip.
        if (changes.length > 0) {
          writes.push(
            `update public.projection_checkpoints set last_changes = ${quote(JSON.stringify(changes))}::jsonb where name = ${quote(this.name)}`,
          );
        }
        const first = open();
        await client.query([...(first ? [first] : []), ...writes, 'commit'].join('\n;\n'));
      } catch (err) {
        // Rolled back, or its outcome unknown; or the tables changed elsewhere: what is kept may
        // not be what they hold.
        this.forgetKept();
        await client.query('rollback').catch(() => {});
        // Said as what it is: the batch is applied again on the new tables, nothing is wrong.
        if ((err as { code?: string }).code === SCHEMA_SWAPPED)
          throw new Error(`projection ${this.name}: its tables were rebuilt and swapped in elsewhere; applying the batch again on them`, {
            cause: err,
          });
        if ((err as { code?: string }).code !== CHECKPOINT_MOVED) throw err;
        this.current = this.stored = await readCheckpoint(client, this.name);
        throw new Error(`projection ${this.name}: checkpoint moved to ${this.current} elsewhere; continuing from there`, { cause: err });
      }
    });
    this.current = this.stored = to;
    this.lastError = null;
    notices.push({ kind: 'checkpoint', projection: this.name, position: to });
    await this.feed.publish(notices);
  }

  /** Stores what quiet batches reached a moment from now, unless a batch with something for the projection does first. */
  private storeSoon(delay = this.opts.quietStoreMs ?? QUIET_STORE_MS): void {
    if (this.storing) return;
    this.storing = setTimeout(() => {
      this.storing = null;
      this.exclusive(() => this.storeReached()).then(
        () => {
          this.storeFailures = 0;
        },
        (err: unknown) => {
          this.storeFailures += 1;
          this.opts.log?.(`projection ${this.name} could not store its checkpoint; trying again`, { error: describeError(err) });
          // Again while this attempt leads, backing off; a new attempt starts from the stored checkpoint anyway.
          if (this.role === 'leader' && this.isCurrent(this.leading)) this.storeSoon(backoffMs(this.storeFailures));
        },
      );
    }, delay);
    this.storing.unref();
  }

  /**
   * Moves the stored checkpoint to what the read model reflects, in one round trip, without
   * waiting for the WAL. Both ends are taken before anything is awaited, and the answer is
   * dropped if the runner has since started another attempt: the move is guarded (by the old
   * position, and never backwards), so a late one can at worst fail.
   */
  private async storeReached(): Promise<void> {
    const attempt = this.leading;
    const from = this.stored;
    const to = this.current;
    if (from >= to) return;
    await withClient(this.pool, async (client) => {
      try {
        await client.query(
          `begin; set local synchronous_commit to off;
           select public.advance_checkpoint(${quote(this.name)}, ${sqlPosition(from)}, ${sqlPosition(to)});
           commit`,
        );
      } catch (err) {
        await client.query('rollback').catch(() => {});
        if ((err as { code?: string }).code !== CHECKPOINT_MOVED) throw err;
        // Moved by someone else (an offline rebuild, another leader): theirs stands, and the
        // tables may have changed with it.
        this.forgetKept();
        if (!this.isCurrent(attempt)) return;
        this.current = this.stored = await readCheckpoint(client, this.name);
        // Moved back beneath what was delivered: the events between are applied now, not when
        // the next batch comes (which on a quiet log may be a while).
        if (this.current < this.delivered) {
          this.exclusive(() => (this.isCurrent(attempt) ? this.applyLive([]) : Promise.resolve())).catch((err: unknown) => {
            this.lastError = describeError(err);
            this.opts.log?.(`projection ${this.name} could not apply the events after its moved checkpoint; the next batch will`, {
              error: this.lastError,
            });
          });
        }
        return;
      }
      if (this.isCurrent(attempt)) this.stored = Math.max(this.stored, to);
    });
  }

  /** The event types it applies, as recorded with its checkpoint (null: every one). */
  private get handles(): string[] | null {
    return this.projection.everyEvent ? null : Object.keys(this.projection.handlers).sort();
  }

  /** Whether any of these events is one this projection handles. */
  private handlesAny(events: RecordedEvent[]): boolean {
    return this.projection.everyEvent !== undefined || events.some((e) => this.projection.handlers[e.type] !== undefined);
  }

  /**
   * Applies events in the caller's transaction: with the projection's batch form when `bulk`
   * (and it has one), else one event at a time. `notices` null: a replay, nobody is told. The
   * batch form's deferred writes (`later`) go into `writes` when given (the caller sends them
   * with its commit), else they are run here before it returns.
   */
  private async applyBatch(
    client: pg.PoolClient,
    schema: string,
    events: RecordedEvent[],
    notices: ChangeNotice[] | null,
    bulk: boolean,
    searchPathSet = false,
    writes?: string[],
  ): Promise<void> {
    if (!searchPathSet) await client.query(`set local search_path to ${ident(schema)}, public`);
    const batchForm = bulk ? this.bulkForm : undefined;
    if (batchForm) {
      const later: string[] = writes ?? [];
      await batchForm(events, {
        db: client,
        replaying: notices === null,
        ...(notices === null ? {} : { kept: this.kept }),
        emit: (change, rooms, position) => {
          notices?.push({ kind: 'change', projection: this.name, push: { ...change, position }, rooms });
        },
        later: (text, params) => {
          later.push(inlineParams(text, params));
        },
      });
      if (!writes && later.length > 0) await client.query(later.join('\n;\n'));
      return;
    }
    // The handlers write the tables on their own: nothing kept can be trusted after them.
    if (notices !== null) this.forgetKept();
    for (const event of events) {
      const handler = this.projection.handlers[event.type];
      const { everyEvent } = this.projection;
      if (!handler && !everyEvent) continue;
      const ctx: ProjectionContext = {
        db: client,
        replaying: notices === null,
        emit: (change, rooms) => {
          notices?.push({ kind: 'change', projection: this.name, push: { ...change, position: event.position }, rooms });
        },
      };
      if (handler) await handler(event, ctx);
      if (everyEvent) await everyEvent(event, ctx);
    }
  }

  private async createTables(schema: string): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      await client.query(`drop schema if exists ${ident(schema)} cascade`);
      await client.query(`create schema ${ident(schema)}`);
      await client.query(`set local search_path to ${ident(schema)}, public`);
      await client.query(this.projection.setup);
      await client.query(`comment on schema ${ident(schema)} is ${literal(this.definition)}`);
    });
  }

  /** Names the table definition the schema was made from, kept as the schema's comment. */
  private get definition(): string {
    return `definition ${createHash('sha256').update(this.projection.setup).digest('hex').slice(0, 16)}`;
  }

  /**
   * Replays the whole log into fresh tables while the live projection keeps serving, then
   * pauses it, applies the tail, and swaps the schemas and checkpoint in one transaction.
   */
  async rebuild(opts: { onProgress?: (p: VerifyProgress) => void } = {}): Promise<{ position: number }> {
    return this.rebuilding(async () => {
      const filled = await this.fillBeside(opts);
      return this.exclusive(async () => {
        const pos = await this.swapIn(filled);
        this.current = this.stored = pos;
        await this.feed.publish([
          { kind: 'rebuilt', projection: this.name, position: pos },
          { kind: 'checkpoint', projection: this.name, position: pos },
        ]);
        return { position: pos };
      });
    });
  }

  /** The oid of the projection's live schema. */
  private async schemaOid(): Promise<number> {
    const { rows } = await this.pool.query<{ oid: string }>('select to_regnamespace($1)::oid::int8 as oid', [this.projection.schema]);
    return Number(rows[0]!.oid);
  }

  /** The definition the live tables were made from (their schema's comment); undefined when there are none. */
  private async liveDefinition(): Promise<string | null | undefined> {
    const { rows } = await this.pool.query<{ definition: string | null }>(
      `select obj_description(oid, 'pg_namespace') as definition from pg_namespace where nspname = $1`,
      [this.projection.schema],
    );
    return rows.length === 0 ? undefined : rows[0]!.definition;
  }

  /**
   * Runs `fn` while holding this projection's rebuild lock (a session advisory lock, across
   * processes): one fill of the scratch tables at a time, so no rebuild drops the tables another
   * is filling. A process killed part way frees it, and the next fill drops its leftovers.
   */
  private async rebuilding<T>(fn: () => Promise<T>): Promise<T> {
    const key = `rebuild:${this.projection.name}`;
    const lock = await this.pool.connect();
    try {
      await lock.query('select pg_advisory_lock(hashtext($1))', [key]);
      try {
        return await fn();
      } finally {
        await lock.query('select pg_advisory_unlock(hashtext($1))', [key]).catch(() => {});
      }
    } finally {
      lock.release();
    }
  }

  /**
   * Fresh tables (`<schema>__rebuild`) filled from the log so far, while the live ones are still
   * read (and, in a rebuild, still applied to); answers the position they reached.
   */
  private async fillBeside(opts: { onProgress?: (p: VerifyProgress) => void; ours?: () => boolean } = {}): Promise<number> {
    const fresh = `${this.projection.schema}__rebuild`;
    await this.createTables(fresh);
    return this.withIndexesBuiltAfter(fresh, () => this.replayInto(fresh, 0, { onProgress: opts.onProgress, ours: opts.ours }));
  }

  /**
   * The rest of the log into the tables `fillBeside` filled, then they take the live ones' place
   * with the checkpoint in one transaction; answers their position. No batch may run meanwhile (a
   * rebuild holds the runner exclusively; a start with a changed definition runs it before it
   * applies anything).
   */
  private async swapIn(from: number, ours?: () => boolean): Promise<number> {
    const { schema } = this.projection;
    const fresh = `${schema}__rebuild`;
    const old = `${schema}__old`;
    let pos = await this.replayInto(fresh, from, { ours });
    if (ours && !ours()) throw new Error(`projection ${this.name}: lost the lead while rebuilding; the next leader rebuilds`);
    // Before the swap, whose outcome may be unknown if it fails; no batch runs until it is done.
    this.forgetKept();
    await this.pool.query(`drop schema if exists ${ident(old)} cascade`); // a swap killed before its drop
    await withTransaction(this.pool, async (client) => {
      // A leader in another process (the shop, beside the tool's rebuild) may have applied batches
      // since the tail above was read. With the checkpoint locked its next ones wait; those it
      // applied are applied to the fresh tables too, so the swap never takes the read models back.
      const live = await lockCheckpoint(client, this.name);
      if (live > pos) pos = Math.max(live, await this.replayInto(fresh, pos, { until: live, client }));
      await client.query(`alter schema ${ident(schema)} rename to ${ident(old)}`);
      await client.query(`alter schema ${ident(fresh)} rename to ${ident(schema)}`);
      await setCheckpoint(client, this.name, pos);
      await markRebuilt(client, this.name, pos);
      await recordHandles(client, this.name, this.handles);
    });
    // Dropped after the swap, not in it: the drop waits for the old tables' last readers, and new
    // reads of the live name must not queue behind it.
    await this.pool
      .query(`drop schema if exists ${ident(old)} cascade`)
      .catch((err: unknown) => this.opts.log?.(`projection ${this.name}: could not drop ${old} yet`, { error: err }));
    return pos;
  }

  /**
   * Runs `fill` on the fresh tables in `schema` without their secondary indexes, then builds them:
   * one sort per index instead of an index entry per row written (GIN indexes above all). The
   * indexes behind keys (primary, unique) stay: the writes need them.
   */
  private async withIndexesBuiltAfter<T>(schema: string, fill: () => Promise<T>): Promise<T> {
    const { rows: indexes } = await this.pool.query<{ name: string; definition: string }>(
      `select i.relname as name, pg_get_indexdef(x.indexrelid) as definition
         from pg_index x join pg_class i on i.oid = x.indexrelid join pg_namespace n on n.oid = i.relnamespace
        where n.nspname = $1 and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
      [schema],
    );
    for (const index of indexes) await this.pool.query(`drop index ${ident(schema)}.${ident(index.name)}`);
    const filled = await fill();
    await withClient(this.pool, async (client) => {
      // Room to sort each index in memory; the session's own setting, for these statements only.
      await client.query(`set maintenance_work_mem = '256MB'`);
      try {
        for (const index of indexes) await client.query(index.definition);
      } finally {
        await client.query('reset maintenance_work_mem');
      }
    });
    return filled;
  }

  /**
   * Rebuilds the projection into scratch tables (`<schema>__verify`) from the log and compares
   * them, table by table and row by row, with the live tables as of the same position; the
   * scratch schema is dropped afterwards. Needs no leadership and takes none: it reads the live
   * tables and the checkpoint, and writes only its scratch schema, so it can run beside a live
   * projector (in this process or another) without holding it up.
   *
   * Writes go on meanwhile, so "as of the same position" needs care. The live tables have no
   * history: they can only be read as of their checkpoint, which keeps moving. So the scratch
   * tables are brought to the live checkpoint rather than the other way round: (1) replay the
   * log into them up to P (the live checkpoint when verify starts, or `upTo`) outside any long
   * transaction; (2) wait until the live checkpoint is at least P; (3) open ONE REPEATABLE READ
   * transaction and read the checkpoint C in it first, which fixes its snapshot: because a batch's
   * rows and its checkpoint commit together, that snapshot shows the live tables exactly as of C;
   * (4) apply the events (P, C] to the scratch tables inside that same transaction (a transaction
   * sees its own writes; the snapshot would hide them if they were committed by another), and
   * (5) compare in it. The transaction takes only ACCESS SHARE locks on the live tables, which
   * the live projector's inserts and updates do not wait for; it is rolled back, then the scratch
   * schema dropped. Re-checking the checkpoint after an ordinary (READ COMMITTED) comparison
   * would instead fail whenever one batch landed during the comparison, which on a busy shop
   * is always. A live rebuild swapping the schema during step (3) is the one case not covered
   * (schema names are resolved outside the snapshot); the checkpoint read would then be below
   * P or the comparison would report the difference, and verify is simply run again.
   */
  async verify(opts: VerifyOptions = {}): Promise<VerifyResult> {
    const { name, schema } = this.projection;
    const live = await this.liveDefinition();
    if (live === undefined) throw new Error(`projection ${name} has no live tables yet (no schema ${schema})`);
    if (live !== this.definition) {
      // Made by other code (an older or newer version of the shop): rows would differ for that reason alone.
      const note = `the live tables were made from another table definition (${live ?? 'none'}, this code: ${this.definition})`;
      return {
        name,
        position: await readCheckpoint(this.pool, name),
        equal: false,
        tables: 0,
        rows: 0,
        differences: [{ table: schema, onlyLive: 0, onlyRebuilt: 0, rows: [], note }],
      };
    }
    const upTo = opts.upTo ?? (await readCheckpoint(this.pool, name));
    const total = opts.countEvents ? await opts.countEvents(upTo) : null;
    let replayed = 0;
    const progress = (position: number, count: number) => {
      replayed += count;
      opts.onProgress?.({ replayed, total, position, upTo });
    };
    // One verify of a projection at a time, across processes (the tool, every gateway's button):
    // each replays the whole log, and they would share the scratch schema. The lock is the
    // session's, so a verify killed part way frees it, and the next one drops its leftovers.
    const lock = await this.pool.connect();
    try {
      const key = `verify:${name}`;
      const { rows } = await lock.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [key]);
      if (!rows[0]!.ok) throw new AppError('conflict', `A verify of ${name} is already running; try again when it has finished`);
      try {
        return await this.verifyLocked(upTo, `${schema}__verify`, opts, progress);
      } finally {
        await lock.query('select pg_advisory_unlock(hashtext($1))', [key]).catch(() => {});
      }
    } finally {
      lock.release();
    }
  }

  private async verifyLocked(
    upTo: number,
    scratch: string,
    opts: VerifyOptions,
    progress: (position: number, count: number) => void,
  ): Promise<VerifyResult> {
    const { name, schema } = this.projection;
    await this.createTables(scratch);
    try {
      await this.replayInto(scratch, 0, { until: upTo, onBatch: progress });
      // The stored checkpoint: the live tables are read as of it below (ADR 0048: it may be behind what they reflect).
      await waitForCheckpoint(this.pool, name, upTo, opts.waitMs ?? 60_000, { stored: true });
      return await withClient(this.pool, async (client) => {
        await client.query('begin isolation level repeatable read');
        try {
          // The first statement takes the snapshot: the live tables are as of this checkpoint.
          const at = await readCheckpoint(client, name);
          if (at < upTo) throw new Error(`projection ${name}: the live checkpoint went back to ${at} (a rebuild?); run verify again`);
          await this.replayInto(scratch, upTo, { until: at, client, onBatch: progress });
          const cmp = await compareSchemas(client, schema, scratch, opts.maxRows ?? 20);
          return { name, position: at, equal: cmp.differences.length === 0, ...cmp };
        } finally {
          await client.query('rollback').catch(() => {});
        }
      });
    } finally {
      await this.pool.query(`drop schema if exists ${ident(scratch)} cascade`);
    }
  }

  /**
   * Applies the log after `from` to the tables in `schema`, a chunk (`bulkSize` events) per
   * transaction of its own (or all on `client`, inside the caller's transaction), up to `until`
   * when given; with the projection's batch form when it has one.
   */
  private async replayInto(
    schema: string,
    from: number,
    opts: {
      until?: number;
      client?: pg.PoolClient;
      onBatch?: (position: number, count: number) => void;
      onProgress?: ((p: VerifyProgress) => void) | undefined;
      /** False once the caller may no longer write (a leader that lost the lead): the replay stops. */
      ours?: (() => boolean) | undefined;
    } = {},
  ): Promise<number> {
    const until = opts.until ?? Infinity;
    const bulk = this.bulkForm !== undefined;
    let pos = from;
    let replayed = 0;
    for await (const events of this.chunks(from, until)) {
      if (opts.ours && !opts.ours()) throw new Error(`projection ${this.name}: lost the lead while replaying; stopped`);
      if (opts.client) await this.applyBatch(opts.client, schema, events, null, bulk);
      else await withTransaction(this.pool, (client) => this.applyBatch(client, schema, events, null, bulk));
      pos = events[events.length - 1]!.position;
      replayed += events.length;
      opts.onBatch?.(pos, events.length);
      opts.onProgress?.({ replayed, total: null, position: pos, upTo: until });
    }
    return pos;
  }
}
