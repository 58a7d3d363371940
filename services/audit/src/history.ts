import type { LogEvent, StreamHistory } from '@tv-shop/contracts';
import { AppError, notFound, type EventStore, type RecordedEvent, type StreamModel } from '@tv-shop/platform';
import { HIDDEN, redact, secretsOf } from './redact';

/**
 * An entity as it was at a moment of the log ("time travel"): its stream read from the store up
 * to `at` (a position, or an ISO time compared with when each event was stored) and folded by the
 * owning service's own `initialState` and `evolve`, the functions its decisions are made with.
 */
export async function streamHistory(deps: {
  store: EventStore;
  models: readonly StreamModel[];
  namesOf: (ids: string[]) => Promise<Map<string, string>>;
  streamId: string;
  at?: number | string | undefined;
  /** How many of the events up to `at` to carry, the latest of them (all when absent). */
  limit?: number;
}): Promise<StreamHistory> {
  const { store, models, streamId, at, limit = Infinity } = deps;
  const category = streamId.slice(0, Math.max(0, streamId.indexOf('-')));
  const model = models.find((m) => m.category === category);
  if (!model) throw notFound('Stream', 'streamId');
  const all = await store.readStream(streamId);
  if (all.length === 0) throw notFound('Stream', 'streamId');
  // Always a prefix of the stream: a state is only ever a fold of its first N events. (Times are
  // not quite in stream order: an event's time is taken before the append waits its turn.)
  const cut =
    at === undefined ? -1 : all.findIndex((e) => (typeof at === 'number' ? e.position > at : Date.parse(e.recordedAt) > Date.parse(at)));
  const included = cut === -1 ? all : all.slice(0, cut);
  let state = model.initialState();
  // When each secret in the state was last set (its value hidden, a change of it still shows).
  const setAt = new Map<string, number>();
  // The state just before the last event included, for what that event changed: one read a step.
  let previous = state;
  let setAtBefore = setAt;
  for (const [i, e] of included.entries()) {
    if (i === included.length - 1) {
      previous = state;
      setAtBefore = new Map(setAt);
    }
    const next = model.evolve(state, e);
    // Only an event that carries a secret sets one: the others are not compared.
    if (secretsOf(e.data).size > 0) {
      const before = secretsOf(state);
      for (const [path, value] of secretsOf(next)) if (before.get(path) !== value) setAt.set(path, e.position);
    }
    state = next;
  }
  // The state needs every event up to `at`; the answer carries only the last `limit` of them.
  const earlier = Math.max(0, included.length - limit);
  const shown = included.slice(earlier);
  const names = await deps.namesOf([...new Set(shown.map((e) => e.metadata.actorId))]);
  const hidden = (set: Map<string, number>) => (path: string) => (set.has(path) ? `[hidden, set at #${set.get(path)}]` : HIDDEN);
  return {
    streamId,
    owner: model.owner,
    category,
    at: included.length ? included[included.length - 1]!.position : 0,
    state: redact(state, hidden(setAt)),
    previous: redact(previous, hidden(setAtBefore)),
    events: shown.map((e) => logEventOf(e, names.get(e.metadata.actorId) ?? null)),
    earlier,
    total: all.length,
  };
}

/** A stored event as the event log shows it (its data's secrets hidden). */
export const logEventOf = (e: RecordedEvent, actorName: string | null): LogEvent => ({
  position: e.position,
  eventId: e.eventId,
  at: new Date(e.recordedAt).toISOString(),
  type: e.type,
  streamId: e.streamId,
  version: e.version,
  actor: { id: e.metadata.actorId, name: actorName, role: e.metadata.actorRole },
  correlationId: e.metadata.correlationId,
  causationId: e.metadata.causationId ?? null,
  data: redact(e.data) as Record<string, unknown>,
});

/** A stream id as a route may carry it: `<category>-<id>`, as the store names streams. */
export function checkStreamId(value: string | undefined): string {
  if (!value || !/^[a-z][a-z0-9_]*-[A-Za-z0-9_.:@-]{1,200}$/.test(value))
    throw new AppError('not_found', 'Stream not found', { field: 'streamId' });
  return value;
}
