import type { Projection } from '@tv-shop/platform';
import { identityProjection } from './identity.projection';

/** The projections a host runs to keep identity's read model up to date. */
export const identityProjections: Projection[] = [identityProjection];
export { IdentityQueries, type Credentials } from './queries';
