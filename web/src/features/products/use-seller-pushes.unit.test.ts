import { describe, expect, it } from 'vitest';
import type { Product } from '@tv-shop/contracts';
import { isSellers } from './use-seller-pushes';

describe("isSellers: a push about one of a seller's listings", () => {
  const row = { _id: 'p1', sellerId: 'y' } as Product;
  it('given a row, then its seller decides', () => {
    expect(isSellers('y', { op: 'upsert', id: 'p1', row, position: 2 }, undefined)).toBe(true);
    expect(isSellers('x', { op: 'upsert', id: 'p1', row, position: 2 }, undefined)).toBe(false);
  });
  it('given a removal, then the row this tab had decides, else the seller it names, else it may be theirs', () => {
    expect(isSellers('x', { op: 'remove', id: 'p1', position: 3, sellerId: 'x' }, row)).toBe(false);
    // Another seller's own listing removed (heard by their account view) is not this page's seller's.
    expect(isSellers('y', { op: 'remove', id: 'p2', position: 3, sellerId: 'x' }, undefined)).toBe(false);
    expect(isSellers('y', { op: 'remove', id: 'p2', position: 3, sellerId: 'y' }, undefined)).toBe(true);
    expect(isSellers('y', { op: 'remove', id: 'p2', position: 3 }, undefined)).toBe(true);
  });
});
