import { describe, expect, it } from 'vitest';
import { matchPage, parsePreloads, preloadLinks } from './page-html';

const pages = [
  { path: '/', modules: ['/assets/home-1.js'], styles: [], reads: ['/api/advertise_products'] },
  { path: '/products/:id', modules: ['/assets/product-2.js'], styles: ['/assets/product-3.css'], reads: ['/api/product/:id'] },
];

describe("a page's preloads", () => {
  it('match the page as the router does: any case in the fixed parts, a trailing slash, one segment per :id', () => {
    expect(matchPage('/products/:id', '/Products/abc/')).toEqual({ id: 'abc' });
    expect(matchPage('/products/:id', '/products/abc/more')).toBeNull();
    expect(matchPage('/products/:id', '/products/')).toBeNull();
    expect(matchPage('/', '/')).toEqual({});
    expect(matchPage('/', '/x')).toBeNull();
    expect(matchPage('/products/:id', '/products/%E0%A4%A')).toBeNull();
  });

  it("name a page's reads with its own id, and only an id of the expected shape", () => {
    expect(preloadLinks(pages, '/products/ab-1', false)).toContain('href="/api/product/ab-1"');
    expect(preloadLinks(pages, '/products/a%20b', false)).not.toContain('as="fetch"');
    expect(preloadLinks(pages, '/products/ab-1', true)).not.toContain('as="fetch"');
    expect(preloadLinks(pages, '/blogs', false)).toBe('');
  });

  it('come from a manifest only when it is whole and of the right shape: otherwise the page comes as built', () => {
    expect(parsePreloads(null)).toEqual([]);
    expect(parsePreloads('{"pages": [')).toEqual([]);
    expect(parsePreloads('{"pages": {}}')).toEqual([]);
    expect(parsePreloads('null')).toEqual([]);
    // An entry missing a list is left out; the others stay.
    expect(parsePreloads(JSON.stringify({ pages: [{ path: '/x', modules: [], reads: [] }, ...pages] }))).toEqual(pages);
    expect(parsePreloads(JSON.stringify({ pages: [{ path: '/x', modules: [1], styles: [], reads: [] }] }))).toEqual([]);
  });
});
