import type { ProductListing } from '@tv-shop/contracts';
import type { BookingEvent } from './booking';
import type { ConfirmedIntent, ProductFacts } from './decide';

// One booking's story, for the specs of the booking decider and the payment workflow.

export const product: ProductFacts = {
  exists: true,
  removed: false,
  sold: false,
  soldTo: null,
  name: 'LG 32"',
  image: '/api/images/a',
  thumbnail: '',
  pricePoisha: 1_200_000,
  sellerId: 's1',
  edits: 0,
  terms: 0,
  termsEdit: 0,
  photos: ['/api/images/a'],
};
export const booking = {
  bookingId: 'b1',
  productId: 'p1',
  productName: 'LG 32"',
  productImage: '/api/images/a',
  pricePoisha: 1_200_000,
  buyerId: 'u1',
  buyerName: 'Nila',
  buyerEmail: 'nila@example.com',
  phone: '017',
  meetingLocation: 'Mirpur 10',
};
export const placed: BookingEvent = { type: 'BookingPlaced', data: booking };
export const intentCreated: BookingEvent = {
  type: 'PaymentIntentCreated',
  data: { bookingId: 'b1', paymentIntentId: 'pi_1', provider: 'sandbox', amountPoisha: 1_200_000, currency: 'bdt' },
};
/** What the provider says of the booking's intent once the card went through. */
export const succeededIntent: ConfirmedIntent = {
  id: 'pi_1',
  status: 'succeeded',
  amount: 1_200_000,
  currency: 'bdt',
  bookingId: 'b1',
  provider: 'sandbox',
};
export const paid: BookingEvent = {
  type: 'BookingPaid',
  data: { bookingId: 'b1', productId: 'p1', buyerId: 'u1', paymentIntentId: 'pi_1', amountPoisha: 1_200_000, provider: 'sandbox' },
};
export const cancelled: BookingEvent = { type: 'BookingCancelled', data: { bookingId: 'b1', productId: 'p1', reason: 'product-sold' } };

/** A TV for sale as catalog lists it (`ProductListed`'s data): what orders reads of a product, for orders' specs. */
export const listing = (productId: string, sellerId: string): ProductListing => ({
  productId,
  name: `Sony 43" ${productId}`,
  imageUrl: '/api/images/x',
  details: 'ok',
  location: 'Dhaka',
  resalePricePoisha: 100_000,
  originalPricePoisha: 200_000,
  useDuration: '2 years',
  condition: 'Good',
  phone: '017',
  categoryId: 'sony',
  categoryName: '',
  sellerId,
  sellerName: 'Karim',
  sellerEmail: `${sellerId}@example.com`,
  postedOn: '1-1-2026',
});
