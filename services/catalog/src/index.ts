export { startCatalog, type CatalogDeps } from './module';
export { productDecider, type ProductCommand } from './product/decide';
export { catalogProjections, CatalogQueries, type NamesOf } from './read-model';
