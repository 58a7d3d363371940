import type { Product, View } from '@tv-shop/contracts';
import type { Positioned } from '@/lib/api-client';
import { useLiveList } from '@/lib/use-live-list';
import { productsStore } from './atoms';

/**
 * Loads one server list into the product store, then shows the store through `scope`, so pushes
 * (sold, advertised, reported, removed) change the page without a refetch. Both functions must be
 * stable: module functions, or memoised on what they close over. `view` is what the list shows:
 * the server sends the tab that view's changes (ADR 0045).
 */
export function useProductList(fetchList: () => Promise<Positioned<Product[]>>, scope: (p: Product) => boolean, view: View | null) {
  const { items, ...state } = useLiveList(productsStore, fetchList, scope, view);
  return { products: items, ...state };
}
