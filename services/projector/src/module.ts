import {
  InProcessChangeFeed,
  ProjectionRunner,
  createLogger,
  type ChangeFeed,
  type LogSource,
  type EventStore,
  type VerifyResult,
} from '@tv-shop/platform';
import type pg from 'pg';
import { auditProjections } from '@tv-shop/audit';
import { catalogProjections } from '@tv-shop/catalog';
import { identityProjections } from '@tv-shop/identity';
import { ordersProjections } from '@tv-shop/orders';

/** Every service's read-model projections: this package hosts them and knows nothing of their domain. */
export const projections = [...identityProjections, ...catalogProjections, ...ordersProjections, ...auditProjections];

/** Runs every read-model projection; each keeps its own checkpoint. */
export async function startProjector({
  pool,
  store,
  feed,
  events,
  only,
}: {
  pool: pg.Pool;
  store: EventStore;
  feed: ChangeFeed;
  /** Where the live events come from: the store (default) or Kafka (EVENT_BUS=kafka). */
  events?: LogSource | undefined;
  /** Run this projection alone (the operator tool's rebuild); default: every one. */
  only?: string | undefined;
}) {
  const log = createLogger('projector');
  const runners = projections
    .filter((p) => only === undefined || p.name === only)
    .map((p) => new ProjectionRunner(pool, store, feed, p, { source: events, log: (m, e) => log.warn(m, e) }));
  for (const r of runners) await r.start();
  return {
    runners,
    async status() {
      const head = await store.headPosition();
      return Promise.all(runners.map((r) => r.status(head)));
    },
    async caughtUp() {
      await Promise.all(runners.map((r) => r.caughtUp()));
    },
    async rebuild(name: string, opts?: Parameters<ProjectionRunner['rebuild']>[0]) {
      const r = runners.find((x) => x.name === name);
      if (!r) throw new Error(`no projection named ${name}`);
      return r.rebuild(opts);
    },
    async stop() {
      await Promise.all(runners.map((r) => r.stop()));
    },
  };
}
export type Projector = Awaited<ReturnType<typeof startProjector>>;

/**
 * Verifies projections on demand (the admin's button). One verify of a projection runs at a time
 * across every process (the runner's lock): a second answers 409.
 */
export function projectionVerifier(pool: pg.Pool, store: EventStore) {
  return {
    names: projections.map((p) => p.name),
    async verify(name: string): Promise<VerifyResult> {
      const projection = projections.find((p) => p.name === name);
      if (!projection) throw new Error(`no projection named ${name}`);
      // Not started: it takes no leadership and applies nothing live; it only reads the live tables.
      return new ProjectionRunner(pool, store, new InProcessChangeFeed(), projection).verify();
    },
  };
}
export type ProjectionVerifier = ReturnType<typeof projectionVerifier>;
