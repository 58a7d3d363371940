import type { Product } from '@tv-shop/contracts';
import type { Positioned } from '@/lib/api-client';
import { useLiveList } from '@/lib/use-live-list';
import { productsStore } from './atoms';

/**
 * Loads one server list into the product store, then shows the store through `scope`, so pushes
 * (sold, advertised, reported, removed) change the page without a refetch. Both arguments must be
 * stable: module functions, or memoised on what they close over.
 */
export function useProductList(fetchList: () => Promise<Positioned<Product[]>>, scope: (p: Product) => boolean) {
  const { items, ...state } = useLiveList(productsStore, fetchList, scope);
  return { products: items, ...state };
}
