import type { Product } from '@tv-shop/contracts';
import { describe, expect, it } from 'vitest';
import { BROWSE, isBrowsing, readSearch, stillMatches, toApiQuery, writeSearch } from './search-params';

const tv = (patch: Partial<Product> = {}): Product => ({
  _id: 'p1',
  porduct_name: 'Samsung 50" QLED',
  productImage: '/api/images/x',
  details: '',
  location: 'Mirpur, Dhaka',
  resale_price: 25000,
  orginal_price: 50000,
  use_duration: '2 years',
  seller: 'Rahim',
  sellerEmail: 'rahim@example.com',
  sellerVerified: false,
  post_date: '22-11-2026',
  phone_number: '01700000000',
  product_condition: 'Good',
  category_id: 'samsung',
  category_name: 'Samsung',
  sold: false,
  paid_sale: false,
  reported: false,
  advertised: false,
  ...patch,
});

describe('the search in the URL', () => {
  it('round-trips, writing only what differs from browsing everything', () => {
    const search = {
      ...BROWSE,
      q: 'samsung',
      minPrice: '10000',
      maxPrice: '30000',
      location: 'Dhaka',
      sold: 'false' as const,
      sort: 'price_asc' as const,
    };
    const params = writeSearch(search);
    expect(params.toString()).toBe('q=samsung&location=Dhaka&minPrice=10000&maxPrice=30000&sold=false&sort=price_asc');
    expect(readSearch(params)).toEqual(search);
  });

  it('is browsing with nothing set, and ignores values it does not know', () => {
    const search = readSearch(new URLSearchParams('sort=cheapest&sold=maybe&condition=Mint'));
    expect(search).toEqual(BROWSE);
    expect(isBrowsing(search)).toBe(true);
  });

  it('keeps a page-fixed brand out of the URL and in the query', () => {
    const search = readSearch(new URLSearchParams('category=lg&q=55'), { category: 'sony' });
    expect(search.category).toBe('sony');
    expect(writeSearch(search, ['category']).toString()).toBe('q=55');
    expect(isBrowsing({ ...search, q: '' }, ['category'])).toBe(true);
    expect(toApiQuery(search, 'abc')).toEqual({ q: '55', category: 'sony', sold: 'any', sort: 'newest', cursor: 'abc' });
  });
});

describe('a shown result after a push', () => {
  it('drops out once sold when only what can be bought is asked for', () => {
    const search = { ...BROWSE, sold: 'false' as const };
    expect(stillMatches(tv(), search)).toBe(true);
    expect(stillMatches(tv({ sold: true }), search)).toBe(false);
    expect(stillMatches(tv({ sold: true }), BROWSE)).toBe(true);
  });

  it('is held to the exact criteria: brand, condition, price range', () => {
    const search = { ...BROWSE, category: 'samsung', condition: 'Good' as const, minPrice: '10000', maxPrice: '30000' };
    expect(stillMatches(tv(), search)).toBe(true);
    expect(stillMatches(tv({ category_id: 'lg' }), search)).toBe(false);
    expect(stillMatches(tv({ product_condition: 'Fair' }), search)).toBe(false);
    expect(stillMatches(tv({ resale_price: 30001 }), search)).toBe(false);
    expect(stillMatches(tv({ resale_price: 9999 }), search)).toBe(false);
  });
});
