import { describe, expect, it } from 'vitest';
import { BROWSE, toApiQuery } from '../features/products/search/search-params';
import { BROWSE_READ, PAGE_PRELOADS } from './page-preloads';
import { paths } from './paths';

const api = (query: Record<string, string>) => `/api/products/search?${new URLSearchParams(query).toString()}`;
const readsOf = (path: string) => PAGE_PRELOADS.find((p) => p.path === path)?.reads ?? [];

describe('the reads a page names in its HTML', () => {
  it('are the URLs the search pages fetch first: a preload the page would not use costs a second fetch', () => {
    expect(BROWSE_READ).toBe(api(toApiQuery(BROWSE)));
    expect(readsOf(paths.allProducts.path)).toContain(api(toApiQuery(BROWSE)));
    const category = readsOf(paths.category.path).find((r) => r.startsWith('/api/products/search'));
    expect(category?.replace(':id', 'sony')).toBe(api(toApiQuery({ ...BROWSE, category: 'sony' })));
  });

  it('are public reads only, and every page with an :id in a read has one in its path', () => {
    for (const page of PAGE_PRELOADS) {
      for (const read of page.reads) {
        expect(read.startsWith('/api/')).toBe(true);
        if (read.includes(':id')) expect(page.path).toContain(':id');
      }
      expect(page.path.startsWith('/dashboard') ? page.reads : []).toEqual([]);
    }
  });
});
