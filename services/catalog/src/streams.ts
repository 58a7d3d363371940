import { streamModel, type StreamModel } from '@tv-shop/platform';
import type { CatalogEvent } from '@tv-shop/contracts';
import { productDecider } from './product/decide';
import { sellerListingsDecider } from './seller-listings/decide';

type Published<T extends CatalogEvent['type']> = Extract<CatalogEvent, { type: T }>;

/**
 * The streams the catalog writes, each folded by the catalog's own functions. A category and a
 * blog post are written once by the seed and never decided on: their state is what was published.
 */
export const catalogStreams: StreamModel[] = [
  streamModel('product', 'catalog', productDecider),
  streamModel('seller_listings', 'catalog', sellerListingsDecider),
  streamModel('category', 'catalog', {
    initialState: (): Published<'CategoryAdded'>['data'] | null => null,
    evolve: (_state, event: Published<'CategoryAdded'>) => event.data,
  }),
  streamModel('blog', 'catalog', {
    initialState: (): Published<'BlogPublished'>['data'] | null => null,
    evolve: (_state, event: Published<'BlogPublished'>) => event.data,
  }),
];
