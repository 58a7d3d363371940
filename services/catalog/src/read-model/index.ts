import type { Projection } from '@tv-shop/platform';
import { catalogProjection } from './catalog.projection';

/** The projections a host runs to keep the catalog's read model up to date. */
export const catalogProjections: Projection[] = [catalogProjection];
export { CatalogQueries, type NamesOf } from './queries';
