import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@tv-shop/platform';

/**
 * A log written by hand for tests that run the real projections over it: events one second
 * apart from 2025-01-01, with plain defaults for the fields a test does not care about.
 */
export function handWrittenLog() {
  let seconds = 0;
  const event = (type: string, data: Record<string, unknown>): NewEvent => ({
    eventId: randomUUID(),
    type,
    data,
    metadata: {
      actorId: 'test',
      actorRole: 'System',
      correlationId: randomUUID(),
      causationId: null,
      at: new Date(Date.UTC(2025, 0, 1, 0, 0, ++seconds)).toISOString(),
    },
  });
  const user = (userId: string, over: { name?: string; role?: string; photoURL?: string } = {}) =>
    event('UserRegistered', {
      userId,
      name: userId,
      email: `${userId}@x.test`,
      photoURL: '',
      role: 'Buyer',
      passwordHash: null,
      via: 'google',
      ...over,
    });
  const listed = (productId: string, over: { imageUrl?: string } = {}) =>
    event('ProductListed', {
      productId,
      name: `TV ${productId}`,
      imageUrl: '/api/images/i',
      details: 'd',
      location: 'Dhaka',
      resalePricePoisha: 1_000_000,
      originalPricePoisha: 2_000_000,
      useDuration: '1 year',
      condition: 'Good',
      phone: '0170',
      categoryId: 'c1',
      categoryName: 'Sony',
      sellerId: 's1',
      sellerName: 'Karim',
      sellerEmail: 's1@x.test',
      postedOn: '1-1-2025',
      ...over,
    });
  const placed = (bookingId: string, productId: string, over: { productImage?: string; pricePoisha?: number } = {}) =>
    event('BookingPlaced', {
      bookingId,
      productId,
      productName: `TV ${productId}`,
      productImage: '/api/images/i',
      pricePoisha: 1_000_000,
      buyerId: 'b1',
      buyerName: 'Nusrat',
      buyerEmail: 'b1@x.test',
      phone: '0180',
      meetingLocation: 'Gulshan',
      ...over,
    });
  return { event, user, listed, placed };
}
