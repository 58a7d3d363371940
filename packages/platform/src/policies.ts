import type pg from 'pg';
import { AppError } from './errors';
import type { LogSource, EventStore, RecordedEvent, Subscription } from './event-store/types';
import type { Logger } from './log';
import { backoffMs } from './retry';
import { openCheckpoint, policyCheckpoint, storeCheckpoint } from './projections/checkpoints';

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
  // One store at a time, in order (a failed one does not hold up the next).
  let storing: Promise<void> = Promise.resolve();
  const store = (position: number) => (storing = storing.catch(() => {}).then(() => storeCheckpoint(opts.pool, key, position)));
  const storeSoon = (failures = 0) => {
    timer ??= setTimeout(
      () => {
        timer = null;
        const position = reached;
        if (position === null) return;
        store(position).then(
          () => {
            if (reached === position) reached = null;
          },
          (err: unknown) => {
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
    from: await openCheckpoint(opts.pool, key),
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
          // Anything else stops the batch and is retried.
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          opts.log.info(`policy ${opts.name} refused on ${e.type} at ${e.position}: ${err.message}`);
        }
      }
      await store(position);
      if (reached !== null && reached <= position) reached = null;
    },
    onError: (err) => opts.log.warn(`policy ${opts.name} failed; will retry`, err),
  });
  return {
    async stop() {
      await sub.stop();
      if (timer) clearTimeout(timer);
      timer = null;
      if (reached !== null) await store(reached).catch(() => {});
    },
    caughtUp: () => sub.caughtUp(),
  };
}
