import { AppError, ConcurrencyError, DuplicateEventError } from '../errors';
import { eventIdFor } from '../ids';
import { RecentlyUsed } from '../recently-used';
import type { EventStore, NewEvent, RecordedEvent } from '../event-store/types';
import { fold, type Decider } from './decider';

export interface Actor {
  id: string;
  role: string;
}

export interface CommandContext {
  commandId: string;
  actor: Actor;
  correlationId: string;
  causationId?: string | null;
  now: () => Date;
}

export interface CommandOutcome {
  streamId: string;
  /** Position of the last event this command appended (or the stream's last, if none). */
  position: number;
  events: RecordedEvent[];
  /** True when this command id had already been handled: nothing new was appended. */
  alreadyDone: boolean;
}

interface DomainEventShape {
  type: string;
  data: unknown;
}

export interface HandleOptions<S = unknown> {
  /** Conflicts retried at most this many times in all (default 4). */
  maxAttempts?: number;
  /**
   * The command starts its stream (a new listing, say): it is decided on the empty state and
   * appended expecting no stream, without reading first (ADR 0047). When the stream turns out to
   * exist (a retry of this command, a clash) or the decision refuses, it goes the usual way.
   */
  expectNew?: boolean;
  /**
   * Streams' states as this process last appended to them (ADR 0051): a command on a stream in
   * it is decided on that state and appended expecting its version, without reading the stream.
   * When that does not settle it (another writer moved the stream, the command was handled
   * before, the decision refused or decided nothing) it goes the usual way.
   */
  cache?: StateCache<S>;
}

/**
 * The states of the streams a process appended to last, each with the version it has after
 * those events: every entry is a fact (the events at and below that version are the ones that
 * state was folded from), so a stale one only costs a version conflict. The least recently used
 * go first past `max` entries.
 */
export class StateCache<S> {
  private readonly entries: RecentlyUsed<string, { version: number; state: S }>;
  constructor(max = 10_000) {
    this.entries = new RecentlyUsed(max);
  }

  get size(): number {
    return this.entries.size;
  }

  get(streamId: string): { version: number; state: S } | undefined {
    return this.entries.get(streamId);
  }

  /** Keeps `state` at `version`, unless a later version of the stream is kept already. */
  set(streamId: string, version: number, state: S): void {
    const known = this.entries.peek(streamId);
    if (known && known.version >= version) return;
    this.entries.set(streamId, { version, state });
  }

  /** Drops the stream's entry if it is no later than `version` (a later one was kept by a command that won). */
  forget(streamId: string, version: number): void {
    const known = this.entries.peek(streamId);
    if (known && known.version <= version) this.entries.delete(streamId);
  }

  /** Keeps the stream's state after `appended`, folded from the events as the store answered them. */
  keep<E>(streamId: string, state: S, appended: RecordedEvent[], evolve: (state: S, event: E) => S): void {
    const folded = appended.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as E), state);
    this.set(streamId, appended[appended.length - 1]!.version, folded);
  }
}

/**
 * Load the stream, decide, append with the expected version; on a version conflict reload and
 * decide again, at most `maxAttempts` times, then give up with the conflict (409). A command id
 * seen before returns what it did the first time and appends nothing.
 */
export async function handleCommand<C, E extends DomainEventShape, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  streamId: string,
  command: C,
  ctx: CommandContext,
  options: number | HandleOptions<S> = {},
): Promise<CommandOutcome> {
  const { maxAttempts = 4, expectNew = false, cache: states } = typeof options === 'number' ? { maxAttempts: options } : options;
  // A new stream's state is the empty one; a stream this process wrote last, the one it kept.
  const from = expectNew ? { version: -1, state: fold(decider, []) } : states?.get(streamId);
  if (from) {
    const done = await appendOn(store, decider, streamId, command, ctx, states, from);
    if (done) return done;
  }
  // The stream, and this command's first event if it was stored before, in one read.
  const first = await store.readStreamAndEvent(streamId, eventIdFor(ctx.commandId, 0));
  if (first.event) return outcomeOf(store, streamId, ctx.commandId, first.event, first.stream);
  for (let attempt = 1; ; attempt++) {
    const history = attempt === 1 ? first.stream : await store.readStream(streamId);
    const state = fold(
      decider,
      history.map((e) => ({ type: e.type, data: e.data }) as E),
    );
    let decided: E[];
    try {
      decided = decider.decide(command, state);
    } catch (err) {
      // A concurrent retry of this same command may have landed since we first looked.
      if (attempt > 1 || history.length > 0) {
        const done = await findOutcome(store, streamId, ctx.commandId);
        if (done) return done;
      }
      throw err;
    }
    if (decided.length === 0) {
      return { streamId, position: history[history.length - 1]?.position ?? 0, events: [], alreadyDone: false };
    }
    try {
      const res = await store.append(streamId, newEvents(decided, ctx), history.length - 1);
      states?.keep(streamId, state, res.events, decider.evolve);
      return { streamId, position: res.position, events: res.events, alreadyDone: false };
    } catch (err) {
      // The stream moved: perhaps because this very command landed from a concurrent retry.
      if (err instanceof DuplicateEventError || err instanceof ConcurrencyError) {
        const done = await findOutcome(store, streamId, ctx.commandId);
        if (done) return done;
      }
      if (err instanceof ConcurrencyError && attempt < maxAttempts) continue;
      // Still moving after every retry (a burst of writes to one stream): a 409 in the caller's
      // words; which stream and versions are the log's business, not the answer's.
      if (err instanceof ConcurrencyError)
        throw new AppError('concurrency', 'Other changes to it were being made at the same moment; please try again');
      throw err;
    }
  }
}

/** The decided events as stored: ids from the command id, the command's metadata. */
function newEvents<E extends DomainEventShape>(decided: E[], ctx: CommandContext): NewEvent[] {
  const at = ctx.now().toISOString();
  return decided.map((e, i) => ({
    eventId: eventIdFor(ctx.commandId, i),
    type: e.type,
    data: e.data,
    metadata: {
      actorId: ctx.actor.id,
      actorRole: ctx.actor.role,
      correlationId: ctx.correlationId,
      causationId: ctx.causationId ?? null,
      commandId: ctx.commandId,
      at,
    },
  }));
}

/**
 * Decides on `from`, a state of the stream at a version (the empty one for `expectNew`, the kept
 * one for `cache`), and appends expecting that version, without reading. Null when that does not
 * settle it (the stream moved, the events were stored before, the decision refused or decided
 * nothing): the caller then reads the stream and decides as usual, so every answer is the one
 * the usual way gives. The cache's entry is dropped then.
 */
async function appendOn<C, E extends DomainEventShape, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  streamId: string,
  command: C,
  ctx: CommandContext,
  states: StateCache<S> | undefined,
  from: { version: number; state: S },
): Promise<CommandOutcome | null> {
  let decided: E[];
  try {
    decided = decider.decide(command, from.state);
  } catch {
    return null;
  }
  if (decided.length === 0) return null;
  try {
    const res = await store.append(streamId, newEvents(decided, ctx), from.version);
    states?.keep(streamId, from.state, res.events, decider.evolve);
    return { streamId, position: res.position, events: res.events, alreadyDone: false };
  } catch (err) {
    // Another writer moved the stream, or this command was stored before: the usual way answers.
    states?.forget(streamId, from.version);
    if (err instanceof ConcurrencyError || err instanceof DuplicateEventError) return null;
    throw err;
  }
}

async function findOutcome(store: EventStore, streamId: string, commandId: string): Promise<CommandOutcome | null> {
  const first = await store.findEvent(eventIdFor(commandId, 0));
  return first ? outcomeOf(store, streamId, commandId, first) : null;
}

/** What the command did when its first event (`first`) was stored; `stream`, the stream's events if already read. */
async function outcomeOf(
  store: EventStore,
  streamId: string,
  commandId: string,
  first: RecordedEvent,
  stream?: RecordedEvent[],
): Promise<CommandOutcome> {
  if (first.streamId !== streamId) {
    throw new AppError('conflict', 'This command id (Idempotency-Key) was already used for another request', { field: 'Idempotency-Key' });
  }
  const from = stream
    ? stream.filter((e) => e.version >= first.version)
    : await store.readStream(first.streamId, { fromVersion: first.version });
  const events = from.filter((e) => e.metadata.commandId === commandId);
  return { streamId, position: events[events.length - 1]!.position, events, alreadyDone: true };
}
