import type pg from 'pg';
import { AppError } from './errors';
import type { EventStore, RecordedEvent, Subscription } from './event-store/types';
import type { Logger } from './log';

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
  handlers: Record<string, PolicyHandler>;
  log: Logger;
}): Promise<{ stop(): Promise<void>; caughtUp(): Promise<void> }> {
  const key = `policy:${opts.name}`;
  await opts.pool.query('insert into public.projection_checkpoints (name) values ($1) on conflict do nothing', [key]);
  const { rows } = await opts.pool.query<{ position: string }>('select position from public.projection_checkpoints where name = $1', [key]);
  const sub: Subscription = opts.store.subscribe({
    from: Number(rows[0]?.position ?? 0),
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
      await opts.pool.query('update public.projection_checkpoints set position = $2, updated_at = now() where name = $1', [key, position]);
    },
    onError: (err) => opts.log.warn(`policy ${opts.name} failed; will retry`, err),
  });
  return { stop: () => sub.stop(), caughtUp: () => sub.caughtUp() };
}

/**
 * Waits until a projection has applied `position` (bounded), for a policy that reads a read
 * model: without it, a booking placed just before its product was removed could be missed.
 */
export async function waitForCheckpoint(pool: pg.Pool, projection: string, position: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query<{ position: string }>('select position from public.projection_checkpoints where name = $1', [
      projection,
    ]);
    if (Number(rows[0]?.position ?? 0) >= position) return;
    if (Date.now() > until) throw new Error(`projection ${projection} did not reach ${position} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
