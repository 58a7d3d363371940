import { uuidFromName } from '@tv-shop/platform';

/** One buyer books one product in one stream: a second unpaid booking of it is a conflict. */
export const bookingIdFor = (productId: string, buyerId: string) => uuidFromName(`booking:${productId}:${buyerId}`);
