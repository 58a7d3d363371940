import { parseCommand, streams, type EventOf } from '@tv-shop/contracts';
import {
  createLogger,
  handleCommand,
  notFound,
  startPolicy,
  uuidFromName,
  validation,
  type CommandBus,
  type CommandEnvelope,
  type EventStore,
  type LogSource,
  type RecordedEvent,
} from '@tv-shop/platform';
import type pg from 'pg';
import { productDecider, type ProductCommand } from './product/decide';
import { DEFAULT_LISTING_LIMITS, type ListingLimits } from './seller-listings/limits';
import { ListingSlots } from './seller-listings/slots';
import { seedCatalog } from './seed/seed';

export interface CatalogDeps {
  store: EventStore;
  bus: CommandBus;
  pool: pg.Pool;
  /** Where its policy reads the log: the store (default) or Kafka. */
  events?: LogSource | undefined;
  now?: () => Date;
  /** How many TVs one seller may have for sale and add an hour (`listingLimitsFromEnv`); unset, the defaults. */
  limits?: ListingLimits;
}

/** Catalog: products and their lifecycle; a seller's listing limits (ADR 0035); categories and blogs; reactions to sales and deletions. */
export async function startCatalog({ store, bus, pool, events, now = () => new Date(), limits = DEFAULT_LISTING_LIMITS }: CatalogDeps) {
  const log = createLogger('catalog');
  await seedCatalog(store, now);
  const slots = new ListingSlots(store, limits, now, log);

  // A product command, then the seller's slot back if it sold or removed the TV.
  const run = async (
    productId: string,
    command: ProductCommand,
    meta: Omit<CommandEnvelope, 'service' | 'type' | 'data' | 'aggregateId'>,
  ) => {
    const out = await handleCommand(store, productDecider, streams.product(productId), command, { ...meta, now });
    await slots.afterProductCommand(productId, out, meta);
    return out;
  };

  bus.register('catalog', async (env) => {
    let command = parseCommand('catalog', env, validation);
    if (command.type === 'ListProduct') {
      const category = await store.readStream(streams.category(command.data.categoryId));
      const added = category[0] as RecordedEvent<'CategoryAdded', EventOf<'CategoryAdded'>['data']> | undefined;
      if (!added) throw notFound('Category', 'category_id');
      command = { ...command, data: { ...command.data, productId: env.aggregateId, categoryName: added.data.category_name } };
      // The seller's listing limits, decided on the seller's own stream before anything is listed.
      await slots.beforeListing(command, env);
    } else if (command.type === 'MarkProductAvailable') await slots.beforeAvailable(command, env.aggregateId, env);
    const out = await run(env.aggregateId, command, env);
    return { position: out.position, result: { productId: env.aggregateId, changed: out.events.length > 0 } };
  });

  // Policy: a deleted seller's unsold listings are withdrawn. (A sale is not a policy: orders
  // sends RecordSale before it records a payment, so the product's stream decides who bought it.)
  const system = (cause: RecordedEvent, key: string) => ({
    commandId: uuidFromName(`catalog-policy:${cause.eventId}:${key}`),
    actor: { id: 'system', role: 'System' },
    correlationId: cause.metadata.correlationId,
    causationId: cause.eventId,
  });
  const policy = await startPolicy({
    name: 'catalog',
    pool,
    store,
    source: events,
    log,
    handlers: {
      UserDeleted: async (e) => {
        const { userId, role } = (e as RecordedEvent<'UserDeleted', EventOf<'UserDeleted'>['data']>).data;
        if (role !== 'Seller') return;
        const ids = await sellersUnsoldProducts(store, userId);
        for (const productId of ids) {
          await run(productId, { type: 'RemoveProduct', data: { reason: 'seller-deleted' } }, system(e, productId));
        }
      },
    },
  });
  return { stop: () => policy.stop(), caughtUp: () => policy.caughtUp() };
}

/**
 * The seller's listings that are neither sold nor removed, read from the log itself rather
 * than a read model, so a listing made a moment before the deletion is not missed.
 */
async function sellersUnsoldProducts(store: EventStore, sellerId: string): Promise<string[]> {
  const live = new Map<string, boolean>();
  for (let from = 0; ;) {
    const batch = await store.readAll(from, 1000);
    if (batch.length === 0) break;
    for (const e of batch) {
      if (!e.streamId.startsWith('product-')) continue;
      const data = e.data as { productId: string; sellerId?: string };
      if (e.type === 'ProductListed' && data.sellerId === sellerId) live.set(data.productId, true);
      else if (!live.has(data.productId)) continue;
      else if (e.type === 'ProductRemoved') live.delete(data.productId);
      else if (e.type === 'ProductMarkedSold') live.set(data.productId, false);
      else if (e.type === 'ProductMarkedAvailable') live.set(data.productId, true);
    }
    from = batch[batch.length - 1]!.position;
  }
  return [...live].filter(([, available]) => available).map(([id]) => id);
}
