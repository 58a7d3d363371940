import { describe, expect, it } from 'vitest';
import type { CatalogCommand } from '@tv-shop/contracts';
import { SYSTEM_ACTOR as system, type Actor } from '@tv-shop/platform';
import { refusalUnder, VISITOR as visitor } from '@tv-shop/platform/testing';
import { catalogSenders } from './senders';

const refusal = refusalUnder('catalog', catalogSenders);

const seller: Actor = { id: 's1', role: 'Seller' };
const otherSeller: Actor = { id: 's2', role: 'Seller' };
const buyer: Actor = { id: 'b1', role: 'Buyer' };
const admin: Actor = { id: 'a1', role: 'Admin' };

const listing = (sellerId: string): CatalogCommand => ({
  type: 'ListProduct',
  data: {
    productId: 'p1',
    name: 'TV',
    imageUrl: 'https://example.com/tv.png',
    details: 'd',
    location: 'Dhaka',
    resalePricePoisha: 100,
    originalPricePoisha: 200,
    useDuration: '1 year',
    condition: 'Good',
    phone: '01700000000',
    categoryId: 'sony',
    categoryName: '',
    sellerId,
    sellerName: 'S',
    sellerEmail: 's@x.co',
    postedOn: '27-11-2026',
  },
});

describe("who may send catalog's commands", () => {
  it('a seller lists only as themself; the admin and the shop may list for a seller; buyers and visitors never', () => {
    expect(refusal(listing('s1'), seller)).toBeNull();
    expect(refusal(listing('s1'), otherSeller)).toMatch(/only as themself/);
    expect(refusal(listing('s1'), buyer)).toMatch(/Only a seller/);
    expect(refusal(listing('s1'), visitor)).not.toBeNull();
    expect(refusal(listing('s1'), admin)).toBeNull();
    expect(refusal(listing('s1'), system)).toBeNull();
  });

  it("a seller's action names the seller who sends it, and comes from a seller", () => {
    for (const type of ['MarkProductSold', 'MarkProductAvailable', 'AdvertiseProduct', 'RemoveAdvertising'] as const) {
      expect(refusal({ type, data: { actorId: 's1' } }, seller)).toBeNull();
      expect(refusal({ type, data: { actorId: 's1' } }, otherSeller)).toMatch(/someone other than who sent it/);
      expect(refusal({ type, data: { actorId: 'a1' } }, admin)).toMatch(/Only Seller/);
      expect(refusal({ type, data: { actorId: 'b1' } }, buyer)).toMatch(/Only Seller/);
      expect(refusal({ type, data: { actorId: 'anonymous' } }, visitor)).toMatch(/Only Seller/);
    }
  });

  it('a report comes from the buyer it names: not a seller (a rival), not a visitor', () => {
    const reportBy = (actorId: string): CatalogCommand => ({ type: 'ReportProduct', data: { actorId, actorName: 'R', reason: '' } });
    expect(refusal(reportBy('b1'), buyer)).toBeNull();
    expect(refusal(reportBy('b1'), { id: 'b2', role: 'Buyer' })).toMatch(/someone other than who sent it/);
    expect(refusal(reportBy('s2'), otherSeller)).toMatch(/Only Buyer/);
    expect(refusal(reportBy('anonymous'), visitor)).toMatch(/Only Buyer/);
    expect(refusal(reportBy('a1'), admin)).toMatch(/Only Buyer/);
  });

  it("removals: the admin's by an admin, a deleted seller's by the shop, a withdrawal by the seller who asks", () => {
    expect(refusal({ type: 'RemoveProduct', data: { reason: 'admin' } }, admin)).toBeNull();
    expect(refusal({ type: 'RemoveProduct', data: { reason: 'admin' } }, seller)).toMatch(/Only Admin/);
    expect(refusal({ type: 'RemoveProduct', data: { reason: 'admin' } }, buyer)).toMatch(/Only Admin/);
    expect(refusal({ type: 'RemoveProduct', data: { reason: 'seller-deleted' } }, system)).toBeNull();
    expect(refusal({ type: 'RemoveProduct', data: { reason: 'seller-deleted' } }, admin)).toMatch(/Only the shop/);
    expect(refusal({ type: 'RemoveProduct', data: { reason: 'withdrawn', actorId: 's1' } }, seller)).toBeNull();
    expect(refusal({ type: 'RemoveProduct', data: { reason: 'withdrawn', actorId: 's1' } }, otherSeller)).not.toBeNull();
    expect(refusal({ type: 'RemoveProduct', data: { reason: 'withdrawn', actorId: 'b1' } }, buyer)).toMatch(/Only Seller/);
  });

  it('a sale is recorded for a buyer who paid, or by the shop (a signed webhook)', () => {
    const sale: CatalogCommand = { type: 'RecordSale', data: { bookingId: 'bk1', buyerName: 'B' } };
    expect(refusal(sale, buyer)).toBeNull();
    expect(refusal(sale, system)).toBeNull();
    expect(refusal(sale, seller)).toMatch(/Only Buyer/);
    expect(refusal(sale, visitor)).toMatch(/Only Buyer/);
  });
});
