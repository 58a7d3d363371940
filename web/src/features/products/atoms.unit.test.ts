import type { Product } from '@tv-shop/contracts';
import { describe, expect, it } from 'vitest';
import { productScopes } from './atoms';

const flags = (over: Partial<Pick<Product, 'advertised' | 'sold' | 'reported'>>) =>
  ({ advertised: false, sold: false, reported: false, ...over }) as Product;

describe('the advertised scope (Home), as the server lists and routes it', () => {
  it('holds an advertised TV for sale; not one sold, not one with reports waiting (ADR 0077), nor one not advertised', () => {
    expect(productScopes.advertised(flags({ advertised: true }))).toBe(true);
    expect(productScopes.advertised(flags({ advertised: true, sold: true }))).toBe(false);
    expect(productScopes.advertised(flags({ advertised: true, reported: true }))).toBe(false);
    expect(productScopes.advertised(flags({ reported: false }))).toBe(false);
  });
});
