import { AppError, ConcurrencyError, DuplicateEventError } from '../errors';
import { eventIdFor } from '../ids';
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

export interface HandleOptions {
  /** Conflicts retried at most this many times in all (default 4). */
  maxAttempts?: number;
  /**
   * The command starts its stream (a new listing, say): it is decided on the empty state and
   * appended expecting no stream, without reading first (ADR 0047). When the stream turns out to
   * exist (a retry of this command, a clash) or the decision refuses, it goes the usual way.
   */
  expectNew?: boolean;
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
  options: number | HandleOptions = {},
): Promise<CommandOutcome> {
  const { maxAttempts = 4, expectNew = false } = typeof options === 'number' ? { maxAttempts: options } : options;
  if (expectNew) {
    const created = await appendNew(store, decider, streamId, command, ctx);
    if (created) return created;
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
      return { streamId, position: res.position, events: res.events, alreadyDone: false };
    } catch (err) {
      // The stream moved: perhaps because this very command landed from a concurrent retry.
      if (err instanceof DuplicateEventError || err instanceof ConcurrencyError) {
        const done = await findOutcome(store, streamId, ctx.commandId);
        if (done) return done;
      }
      if (err instanceof ConcurrencyError && attempt < maxAttempts) continue;
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
 * `expectNew`: decides on the empty state and appends expecting no stream. Null when that does
 * not settle it (the stream exists, the events were stored before, the decision refused or
 * decided nothing): the caller then reads the stream and decides as usual, so every answer is
 * the one the usual way gives.
 */
async function appendNew<C, E extends DomainEventShape, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  streamId: string,
  command: C,
  ctx: CommandContext,
): Promise<CommandOutcome | null> {
  let decided: E[];
  try {
    decided = decider.decide(command, fold(decider, []));
  } catch {
    return null;
  }
  if (decided.length === 0) return null;
  try {
    const res = await store.append(streamId, newEvents(decided, ctx), -1);
    return { streamId, position: res.position, events: res.events, alreadyDone: false };
  } catch (err) {
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
