export { startCatalog, type CatalogDeps } from './module';
export { productDecider, type ProductCommand } from './product/decide';
