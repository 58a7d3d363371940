import { parseCommand, streams, type EventOf } from '@tv-shop/contracts';
import {
  AppError,
  createLogger,
  checkSender,
  handleCommand,
  StateCache,
  validation,
  type CommandBus,
  type CommandContext,
  type EventStore,
  type LogSource,
  type RecordedEvent,
} from '@tv-shop/platform';
import type pg from 'pg';
import { catalogSenders } from './senders';
import { productDecider, type ProductCommand } from './product/decide';
import type { ProductState } from './product/product';
import { CatalogQueries } from './read-model/queries';
import { DEFAULT_LISTING_LIMITS, type ListingLimits } from './seller-listings/limits';
import { ListingSlots } from './seller-listings/slots';
import { startSellerDeletedPolicy } from './policies/seller-deleted';
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
  const queries = new CatalogQueries(pool);
  const slots = new ListingSlots(store, limits, now, log, (sellerId) =>
    queries.availableIdsOf(sellerId).catch((err: unknown) => {
      // The projector has not made catalog's tables yet (it starts apart): a moment's wait, not a 500.
      if ((err as { code?: string }).code === '42P01') throw new AppError('unavailable', 'The catalogue is starting; try again shortly');
      throw err;
    }),
  );

  // The products this process last wrote, so that their next command needs no read (ADR 0051):
  // the 2,000 written last (a listing's state is a few kB).
  const productStates = new StateCache<ProductState>(2000);
  // A product command, then the seller's slot back if it sold or removed the TV.
  const run = async (productId: string, command: ProductCommand, meta: Omit<CommandContext, 'now'>) => {
    // A listing starts its product's stream: appended without reading it first (ADR 0047).
    const out = await handleCommand(
      store,
      productDecider,
      streams.product(productId),
      command,
      { ...meta, now },
      { expectNew: command.type === 'ListProduct', cache: productStates },
    );
    await slots.afterProductCommand(productId, out, meta);
    return out;
  };

  // A category's name, from its stream: a category is only ever added (its one event), so a name
  // once found stays true and is kept.
  const categoryNames = new Map<string, string>();
  const categoryName = async (categoryId: string): Promise<string> => {
    const known = categoryNames.get(categoryId);
    if (known !== undefined) return known;
    const category = await store.readStream(streams.category(categoryId));
    const added = category[0] as RecordedEvent<'CategoryAdded', EventOf<'CategoryAdded'>['data']> | undefined;
    // A field of the body, not the address: 400 naming it, so the seller's form marks the field.
    if (!added) throw validation('category_id', 'is not a category of TV Shop');
    categoryNames.set(categoryId, added.data.category_name);
    return added.data.category_name;
  };

  bus.register('catalog', async (env) => {
    let command = parseCommand('catalog', env, validation);
    // The deciders check ownership on `data.actorId`, the log records `env.actor`: the rules make
    // them one account, and say which roles may send each command at all.
    checkSender(catalogSenders, command, env);
    if (command.type === 'ListProduct') {
      const name = await categoryName(command.data.categoryId);
      command = { ...command, data: { ...command.data, productId: env.aggregateId, categoryName: name } };
      // The seller's listing limits, decided on the seller's own stream before anything is listed.
      await slots.beforeListing(command, env);
    } else if (command.type === 'EditListing') {
      const name = await categoryName(command.data.listing.categoryId);
      command = { ...command, data: { ...command.data, listing: { ...command.data.listing, categoryName: name } } };
    } else if (command.type === 'MarkProductAvailable') await slots.beforeAvailable(command, env.aggregateId, env);
    const out = await run(env.aggregateId, command, env);
    return { position: out.position, result: { productId: env.aggregateId, changed: out.events.length > 0 } };
  });

  const policy = await startSellerDeletedPolicy({ store, pool, events, run });
  return { stop: () => policy.stop(), caughtUp: () => policy.caughtUp() };
}
