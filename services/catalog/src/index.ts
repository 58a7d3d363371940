export { startCatalog, type CatalogDeps } from './module';
export { productDecider, type ProductCommand } from './product/decide';
export { DEFAULT_LISTING_LIMITS, listingLimitsFromEnv, type ListingLimits } from './seller-listings/limits';
export { catalogProjections, CatalogQueries, type NamesOf } from './read-model';
export { catalogStreams } from './streams';
export { listedProductRow } from './read-model/catalog.batch';
