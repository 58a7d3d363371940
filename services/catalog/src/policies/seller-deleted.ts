import { streams, type EventOf } from '@tv-shop/contracts';
import {
  isRefusal,
  createLogger,
  startPolicy,
  SYSTEM_ACTOR,
  uuidFromName,
  waitForCheckpoint,
  type CommandContext,
  type EventStore,
  type LogSource,
  type RecordedEvent,
} from '@tv-shop/platform';
import type pg from 'pg';
import type { ProductCommand } from '../product/decide';
import { catalogProjection } from '../read-model/catalog.projection';
import { CatalogQueries } from '../read-model/queries';

/** How catalog runs a command on a product's stream (its decider, then the seller's listing slot). */
export type RunProductCommand = (productId: string, command: ProductCommand, meta: Omit<CommandContext, 'now'>) => Promise<unknown>;

export interface SellerDeletedDeps {
  store: EventStore;
  pool: pg.Pool;
  /** Where the policy reads the log: the store (default) or Kafka. */
  events?: LogSource | undefined;
  run: RunProductCommand;
}

/**
 * Catalog's policy: a deleted seller's TVs for sale are removed (`ProductRemoved`, reason
 * `seller-deleted`). Which ones: catalog's read model once it has caught up with the deletion, so
 * a TV listed a moment before it is removed too; and a TV listed or made available after it (a
 * request the gateway let through a moment before it heard of the deletion) is removed as it
 * reaches the log, so nothing stays for sale by nobody. Each command's id is named by the event
 * and the product, so a policy that runs an event again (a restart) repeats nothing.
 * (A sale is not a policy: orders sends RecordSale before it records a payment, ADR 0006.)
 */
export function startSellerDeletedPolicy({ store, pool, events, run }: SellerDeletedDeps) {
  const queries = new CatalogQueries(pool);
  const log = createLogger('catalog');
  const remove = (e: RecordedEvent, productId: string) =>
    run(
      productId,
      { type: 'RemoveProduct', data: { reason: 'seller-deleted' } },
      {
        commandId: uuidFromName(`catalog-policy:${e.eventId}:${productId}`),
        actor: SYSTEM_ACTOR,
        correlationId: e.metadata.correlationId,
        causationId: e.eventId,
      },
    );
  /** Whether the seller's account is closed: their own stream says so (the log, not a read model that may lag). */
  const closed = async (sellerId: string) => (await store.readStream(streams.user(sellerId))).some((x) => x.type === 'UserDeleted');
  /** Who sells a product: its listing, the first event of its stream. */
  const sellerOf = async (productId: string) => {
    const [listed] = await store.readStream(streams.product(productId));
    return listed?.type === 'ProductListed' ? (listed.data as EventOf<'ProductListed'>['data']).sellerId : null;
  };
  return startPolicy({
    name: 'catalog',
    pool,
    store,
    source: events,
    log,
    handlers: {
      UserDeleted: async (e) => {
        const { userId, role } = (e as RecordedEvent<'UserDeleted', EventOf<'UserDeleted'>['data']>).data;
        if (role !== 'Seller') return;
        await waitForCheckpoint(pool, catalogProjection.name, e.position);
        // One at a time, and one refused (withdrawn or removed by the admin a moment ago) does
        // not leave the rest for sale: a refusal is a decision about that listing only.
        for (const product of await queries.availableOf(userId)) {
          try {
            await remove(e, product._id);
          } catch (err) {
            // A write that kept meeting others (`concurrency`) is not a decision: the deletion is
            // read again, and the listings already removed are refused as such.
            if (!isRefusal(err)) throw err;
            log.info(`a closed account's listing was not removed: ${err.message}`, { productId: product._id });
          }
        }
      },
      ProductListed: async (e) => {
        const { productId, sellerId } = e.data as EventOf<'ProductListed'>['data'];
        if (await closed(sellerId)) await remove(e, productId);
      },
      ProductMarkedAvailable: async (e) => {
        const { productId } = e.data as EventOf<'ProductMarkedAvailable'>['data'];
        const sellerId = await sellerOf(productId);
        if (sellerId && (await closed(sellerId))) await remove(e, productId);
      },
    },
  });
}
