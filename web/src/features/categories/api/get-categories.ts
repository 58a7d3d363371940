import type { Category } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useAtomCallback } from 'jotai/utils';
import { useCallback } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useLoad } from '@/lib/use-load';
import { categoriesAtom } from '../atoms';

/** Public, sent without the bearer header as the spec says. */
export const getCategories = () => apiRequest<Category[]>('/categories', { auth: false });

export function useCategories() {
  const categories = useAtomValue(categoriesAtom);
  const load = useAtomCallback(
    useCallback(async (get, set) => {
      if (!get(categoriesAtom)) set(categoriesAtom, await getCategories());
    }, []),
  );
  const { loading, error, retry } = useLoad(load);
  return { categories: categories ?? [], loading: loading && !categories, error: categories ? null : error, retry };
}
