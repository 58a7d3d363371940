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
  maxAttempts = 4,
): Promise<CommandOutcome> {
  const earlier = await findOutcome(store, streamId, ctx.commandId);
  if (earlier) return earlier;
  for (let attempt = 1; ; attempt++) {
    const history = await store.readStream(streamId);
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
    const at = ctx.now().toISOString();
    const events: NewEvent[] = decided.map((e, i) => ({
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
    try {
      const res = await store.append(streamId, events, history.length - 1);
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

async function findOutcome(store: EventStore, streamId: string, commandId: string): Promise<CommandOutcome | null> {
  const first = await store.findEvent(eventIdFor(commandId, 0));
  if (!first) return null;
  if (first.streamId !== streamId) {
    throw new AppError('conflict', 'This command id (Idempotency-Key) was already used for another request', { field: 'Idempotency-Key' });
  }
  const events = (await store.readStream(first.streamId, { fromVersion: first.version })).filter((e) => e.metadata.commandId === commandId);
  return { streamId, position: events[events.length - 1]!.position, events, alreadyDone: true };
}
