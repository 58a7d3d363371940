import type { Product } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useMemo, type DependencyList } from 'react';
import { useLoad } from '@/lib/use-load';
import { productsStore } from './atoms';

/**
 * Loads one server list into the product store once, then shows the store through `scope`,
 * so pushes (sold, advertised, reported, removed) change the page without a refetch.
 */
export function useProductList(fetchList: () => Promise<Product[]>, scope: (p: Product) => boolean, deps: DependencyList) {
  const load = useSetAtom(productsStore.loadAtom);
  const { loading, error } = useLoad(async () => load({ rows: await fetchList(), inScope: scope }), deps);
  const { rows } = useAtomValue(productsStore.stateAtom);
  // `scope` is rebuilt each render; `deps` say when it really changes.
  const products = useMemo(() => [...rows.values()].filter(scope), [rows, ...deps]);
  return { products, loading, error };
}
