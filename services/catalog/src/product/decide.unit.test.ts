import { describe, it } from 'vitest';
import { deciderSpec } from '@tv-shop/platform/testing';
import type { ProductListing } from '@tv-shop/contracts';
import { productDecider } from './decide';
import type { ProductEvent } from './product';

const listing: ProductListing = {
  productId: 'p1',
  name: 'Sony Bravia 43"',
  imageUrl: '/api/images/x',
  details: 'Works well',
  location: 'Dhaka',
  resalePricePoisha: 2_500_000,
  originalPricePoisha: 6_000_000,
  useDuration: '2 years',
  condition: 'Good',
  phone: '01700000000',
  categoryId: 'sony',
  categoryName: 'Sony',
  sellerId: 's1',
  sellerName: 'Karim',
  sellerEmail: 'karim@example.com',
  postedOn: '21-11-2026',
};
const listed: ProductEvent = { type: 'ProductListed', data: listing };
const sold: ProductEvent = { type: 'ProductMarkedSold', data: { productId: 'p1' } };
const given = deciderSpec(productDecider);
const seller = { actorId: 's1' };

describe('product decider', () => {
  it('given nothing, when a seller lists a product, then ProductListed', () =>
    given().when({ type: 'ListProduct', data: listing }).then([listed]));
  it('given an available product, when its seller marks it sold, then ProductMarkedSold', () =>
    given(listed).when({ type: 'MarkProductSold', data: seller }).then([sold]));
  it('given an available product, when another seller marks it sold, then forbidden', () =>
    given(listed)
      .when({ type: 'MarkProductSold', data: { actorId: 's2' } })
      .thenThrows({ kind: 'forbidden' }));
  it('given a sold product, when marked sold again, then an illegal state; when marked available, then ProductMarkedAvailable', () => {
    given(listed, sold).when({ type: 'MarkProductSold', data: seller }).thenThrows({ kind: 'illegal_state' });
    given(listed, sold)
      .when({ type: 'MarkProductAvailable', data: seller })
      .then([{ type: 'ProductMarkedAvailable', data: { productId: 'p1' } }]);
  });
  it('given an available product, when advertised then un-advertised, then each event once', () => {
    given(listed)
      .when({ type: 'AdvertiseProduct', data: seller })
      .then([{ type: 'ProductAdvertised', data: { productId: 'p1' } }]);
    given(listed, { type: 'ProductAdvertised', data: { productId: 'p1' } })
      .when({ type: 'AdvertiseProduct', data: seller })
      .thenThrows({ kind: 'illegal_state' });
    given(listed, { type: 'ProductAdvertised', data: { productId: 'p1' } })
      .when({ type: 'RemoveAdvertising', data: seller })
      .then([{ type: 'ProductAdvertisingRemoved', data: { productId: 'p1' } }]);
  });
  it('given a sold product, when advertised, then refused', () =>
    given(listed, sold).when({ type: 'AdvertiseProduct', data: seller }).thenThrows({ kind: 'illegal_state' }));
  it('given a product, when a buyer reports it, then ProductReported; a second report is refused', () => {
    given(listed)
      .when({ type: 'ReportProduct', data: { actorId: 'b1' } })
      .then([{ type: 'ProductReported', data: { productId: 'p1', reporterId: 'b1' } }]);
    given(listed, { type: 'ProductReported', data: { productId: 'p1', reporterId: 'b1' } })
      .when({ type: 'ReportProduct', data: { actorId: 'b2' } })
      .thenThrows({ kind: 'illegal_state' });
  });
  it('given a removed product, when anything happens to it, then not found', () => {
    const removed: ProductEvent = { type: 'ProductRemoved', data: { productId: 'p1', reason: 'reported' } };
    given(listed, removed).when({ type: 'MarkProductSold', data: seller }).thenThrows({ kind: 'not_found' });
    given(listed, removed)
      .when({ type: 'RemoveProduct', data: { reason: 'admin' } })
      .thenThrows({ kind: 'not_found' });
  });
  it('given an available product, when a booking buys it, then ProductMarkedSold to that booking; the same sale again changes nothing', () => {
    const soldToB1: ProductEvent = { type: 'ProductMarkedSold', data: { productId: 'p1', bookingId: 'b1' } };
    given(listed)
      .when({ type: 'RecordSale', data: { bookingId: 'b1' } })
      .then([soldToB1]);
    given(listed, soldToB1)
      .when({ type: 'RecordSale', data: { bookingId: 'b1' } })
      .then([]);
  });
  it('given a product sold to one booking or by its seller, when another booking buys it, then refused', () => {
    given(listed, { type: 'ProductMarkedSold', data: { productId: 'p1', bookingId: 'b1' } })
      .when({ type: 'RecordSale', data: { bookingId: 'b2' } })
      .thenThrows({ kind: 'illegal_state' });
    given(listed, sold)
      .when({ type: 'RecordSale', data: { bookingId: 'b2' } })
      .thenThrows({ kind: 'illegal_state' });
    given(listed, { type: 'ProductRemoved', data: { productId: 'p1', reason: 'admin' } })
      .when({ type: 'RecordSale', data: { bookingId: 'b2' } })
      .thenThrows({ kind: 'not_found' });
  });
});
