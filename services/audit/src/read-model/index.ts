import type { Projection } from '@tv-shop/platform';
import { auditProjection } from './audit.projection';

/** The projections a host runs to keep the event log's read model up to date. */
export const auditProjections: Projection[] = [auditProjection];
export { AuditQueries } from './queries';
