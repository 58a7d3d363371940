import type pg from 'pg';
import { isRefusal } from './errors';
import type { LogSource, EventStore, RecordedEvent, Subscription } from './event-store/types';
import type { Logger } from './log';
import { backoffMs } from './retry';
import { openCheckpoint, policyCheckpoint, recordHandles, storeCheckpoint } from './projections/checkpoints';

/** How long the checkpoint of batches with nothing to react to waits to be stored. */
const STORE_IDLE_AFTER_MS = 250;

export type PolicyHandler = (event: RecordedEvent<string, never>) => Promise<void>;

/**
 * A reaction to events (in the shop: a sale cancels the product's other unpaid bookings). It runs as
 * a subscription with its own checkpoint, like a projection. Delivery is at-least-once: handlers send commands whose ids
 * derive from the event id, so a redelivered event changes nothing.
 */
export async function startPolicy(opts: {
  name: string;
  pool: pg.Pool;
  store: EventStore;
  /** Where the events come from: the store's subscription (default), or Kafka. */
  source?: LogSource | undefined;
  handlers: Record<string, PolicyHandler>;
  log: Logger;
}): Promise<{ stop(): Promise<void>; caughtUp(): Promise<void> }> {
  const key = policyCheckpoint(opts.name);
  // A batch with nothing for this policy is not worth a round trip of its own: its checkpoint is
  // stored a moment later (retried until it is), or with the next batch it reacts to (ADR 0047).
  // A restart from the older checkpoint reads those events again, and again has nothing to do.
  let reached: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  // One store at a time, in order, never lower than one queued before it (a failed one does not
  // hold up the next).
  let storing: Promise<void> = Promise.resolve();
  let queued = 0;
  const store = (position: number): Promise<void> => {
    if (position <= queued) return storing.catch(() => {});
    queued = position;
    return (storing = storing.catch(() => {}).then(() => storeCheckpoint(opts.pool, key, position)));
  };
  const cancelTimer = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const storeSoon = (failures = 0) => {
    if (stopped) return;
    timer ??= setTimeout(
      () => {
        timer = null;
        const position = reached;
        if (position === null || stopped) return;
        store(position).then(
          () => {
            if (reached === position) reached = null;
          },
          (err: unknown) => {
            // Stored again from the start: a later store may have been queued meanwhile.
            queued = Math.min(queued, position - 1);
            opts.log.warn(`policy ${opts.name} could not store its checkpoint; will retry`, err);
            storeSoon(failures + 1);
          },
        );
      },
      failures === 0 ? STORE_IDLE_AFTER_MS : backoffMs(failures),
    );
    timer.unref();
  };
  const sub: Subscription = (opts.source ?? opts.store).subscribe({
    name: `policy.${opts.name}`,
    from: await (async () => {
      const from = await openCheckpoint(opts.pool, key);
      // Which events it reacts to: a write waiting for its reactions (`settle`) counts the policy
      // as past the others at once, not after their checkpoint's idle store (reachedCheckpoint).
      await recordHandles(opts.pool, key, Object.keys(opts.handlers));
      return from;
    })(),
    onBatch: async ({ events, position }) => {
      if (!events.some((e) => opts.handlers[e.type])) {
        reached = position;
        storeSoon();
        return;
      }
      for (const e of events) {
        const h = opts.handlers[e.type];
        if (!h) continue;
        try {
          await h(e as RecordedEvent<string, never>);
        } catch (err) {
          // A refusal (the product was removed meanwhile, say) is a decision, not a failure: go on.
          // Anything else, a stream still busy with other writes included, stops the batch and is
          // retried: skipping it would leave a reaction undone for good.
          if (!isRefusal(err)) throw err;
          opts.log.info(`policy ${opts.name} refused on ${e.type} at ${e.position}: ${err.message}`);
        }
      }
      // This store covers what a pending one would have stored.
      reached = null;
      cancelTimer();
      try {
        await store(position);
      } catch (err) {
        queued = Math.min(queued, position - 1);
        throw err;
      }
    },
    onError: (err) => opts.log.warn(`policy ${opts.name} failed; will retry`, err),
  });
  return {
    async stop() {
      await sub.stop();
      stopped = true;
      cancelTimer();
      const position = reached;
      reached = null;
      if (position !== null) await store(position).catch(() => {});
    },
    caughtUp: () => sub.caughtUp(),
  };
}
