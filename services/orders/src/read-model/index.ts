import type { Projection } from '@tv-shop/platform';
import { ordersProjection } from './orders.projection';

/** The projections a host runs to keep the orders read model up to date. */
export const ordersProjections: Projection[] = [ordersProjection];
export { ORDERS_PROJECTION } from './orders.projection';
export { OrdersQueries, type UnsoldOf } from './queries';
