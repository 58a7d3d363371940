import type { EventStore, RecordedEvent } from '../event-store/types';

/**
 * The event store as an operator's rebuild (another process) reads it, with hooks into the
 * moments a live leader's batch can commit unseen by the rebuild: `afterTail` once the swap's
 * tail has been read (the second time the log is read to its end), `inSwap` on each read after
 * that that finds events (the swap catching up inside its transaction, ADR 0064).
 */
export function storeWithSwapWindow<S extends EventStore>(
  store: S,
  hooks: { afterTail: () => Promise<void>; inSwap?: (events: RecordedEvent[]) => Promise<void> },
): S {
  let endsRead = 0;
  const windowed = Object.create(store) as S;
  windowed.readAll = async (after, limit) => {
    const events = await store.readAll(after, limit);
    if (events.length === 0 && ++endsRead === 2) await hooks.afterTail();
    else if (endsRead >= 2 && events.length > 0) await hooks.inSwap?.(events);
    return events;
  };
  return windowed;
}
