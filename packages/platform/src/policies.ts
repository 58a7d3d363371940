import type pg from 'pg';
import { AppError } from './errors';
import type { LogSource, EventStore, RecordedEvent, Subscription } from './event-store/types';
import type { Logger } from './log';
import { openCheckpoint, policyCheckpoint, setCheckpoint } from './projections/checkpoints';

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
  const sub: Subscription = (opts.source ?? opts.store).subscribe({
    name: `policy.${opts.name}`,
    from: await openCheckpoint(opts.pool, key),
    onBatch: async ({ events, position }) => {
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
      await setCheckpoint(opts.pool, key, position);
    },
    onError: (err) => opts.log.warn(`policy ${opts.name} failed; will retry`, err),
  });
  return { stop: () => sub.stop(), caughtUp: () => sub.caughtUp() };
}
