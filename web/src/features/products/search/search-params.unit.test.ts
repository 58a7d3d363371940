import type { Product } from '@tv-shop/contracts';
import { describe, expect, it } from 'vitest';
import { BROWSE, newlyMatches, placeInSort, readSearch, stillMatches, toApiQuery, writeSearch } from './search-params';

const tv = (patch: Partial<Product> = {}): Product => ({
  _id: 'p1',
  porduct_name: 'Samsung 50" QLED',
  productImage: '/api/images/x',
  productImages: ['/api/images/x'],
  productThumbnails: ['/api/images/x'],
  details: '',
  location: 'Mirpur, Dhaka',
  resale_price: 25000,
  orginal_price: 50000,
  use_duration: '2 years',
  seller: 'Rahim',
  sellerId: 'u-rahim',
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
  listedAt: 10,
  edits: 0,
  ...patch,
});

describe('the search in the URL', () => {
  it('round-trips, writing only what differs from browsing what is for sale', () => {
    const search = {
      ...BROWSE,
      q: 'samsung',
      minPrice: '10000',
      maxPrice: '30000',
      location: 'Dhaka',
      sold: 'any' as const,
      sort: 'price_asc' as const,
    };
    const params = writeSearch(search);
    expect(params.toString()).toBe('q=samsung&location=Dhaka&minPrice=10000&maxPrice=30000&sold=any&sort=price_asc');
    expect(readSearch(params)).toEqual(search);
  });

  it('with nothing set asks for what is for sale, newest first, and ignores values it does not know', () => {
    const search = readSearch(new URLSearchParams('sort=cheapest&sold=maybe&condition=Mint'));
    expect(search).toEqual(BROWSE);
    expect(writeSearch(search).size).toBe(0);
    expect(toApiQuery(search)).toEqual({ sold: 'false', sort: 'newest' });
  });

  it('keeps a page-fixed brand out of the URL and in the query', () => {
    const search = readSearch(new URLSearchParams('category=lg&q=55'), { category: 'sony' });
    expect(search.category).toBe('sony');
    expect(writeSearch(search, ['category']).toString()).toBe('q=55');
    expect(writeSearch({ ...search, q: '' }, ['category']).size).toBe(0);
    expect(toApiQuery(search, 'abc')).toEqual({ q: '55', category: 'sony', sold: 'false', sort: 'newest', cursor: 'abc' });
  });
});

describe('a shown result after a push', () => {
  it('drops out once sold when only what can be bought is asked for', () => {
    const search = { ...BROWSE, sold: 'false' as const };
    expect(stillMatches(tv(), search)).toBe(true);
    expect(stillMatches(tv({ sold: true }), search)).toBe(false);
    expect(stillMatches(tv({ sold: true }), { ...BROWSE, sold: 'any' })).toBe(true);
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

describe('a listing pushed after the search was read', () => {
  it('joins when each word starts one of its words, its place holds the location, and the exact criteria hold', () => {
    const search = { ...BROWSE, q: 'sams qled', location: 'dhaka', maxPrice: '30000' };
    expect(newlyMatches(tv(), search)).toBe(true);
    expect(newlyMatches(tv({ details: 'wall mount' }), { ...BROWSE, q: 'wall' })).toBe(true);
    expect(newlyMatches(tv(), { ...search, q: 'sony' })).toBe(false);
    expect(newlyMatches(tv(), { ...search, location: 'sylhet' })).toBe(false);
    expect(newlyMatches(tv({ sold: true }), search)).toBe(false);
    expect(newlyMatches(tv({ resale_price: 40000 }), search)).toBe(false);
    // Stricter than the server: a misspelling the server would widen does not join live.
    expect(newlyMatches(tv(), { ...BROWSE, q: 'samsng' })).toBe(false);
  });
});

describe('a listing whose price changed after the search was read', () => {
  const rows = [tv({ _id: 'a', resale_price: 10000 }), tv({ _id: 'b', resale_price: 20000 }), tv({ _id: 'c', resale_price: 30000 })];
  const ids = (list: Product[]) => list.map((p) => p._id);

  it('given a price sort, then it takes its new place among the rows read, after rows of the same price', () => {
    const cheaper = tv({ _id: 'x', resale_price: 20000 });
    expect(ids(placeInSort(rows, [cheaper], 'price_asc'))).toEqual(['a', 'b', 'x', 'c']);
    expect(ids(placeInSort([...rows].reverse(), [cheaper], 'price_desc'))).toEqual(['c', 'b', 'x', 'a']);
    expect(ids(placeInSort(rows, [tv({ _id: 'x', resale_price: 5000 })], 'price_asc'))).toEqual(['x', 'a', 'b', 'c']);
  });

  it('given a new place past the last row read, then it stays last (it was read and counted)', () => {
    expect(ids(placeInSort(rows, [tv({ _id: 'x', resale_price: 90000 })], 'price_asc'))).toEqual(['a', 'b', 'c', 'x']);
  });

  it('given nothing repriced, then the rows stay as the server ordered them', () => {
    expect(placeInSort(rows, [], 'price_asc')).toBe(rows);
  });
});
