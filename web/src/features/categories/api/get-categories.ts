import type { Category } from '@tv-shop/contracts';
import { useAtom } from 'jotai';
import { apiRequest } from '@/lib/api-client';
import { useLoad } from '@/lib/use-load';
import { categoriesAtom } from '../atoms';

/** Public, sent without the bearer header as the spec says. */
export const getCategories = () => apiRequest<Category[]>('/categories', { auth: false });

export function useCategories() {
  const [categories, setCategories] = useAtom(categoriesAtom);
  const { loading, error } = useLoad(async () => {
    if (!categories) setCategories(await getCategories());
  }, []);
  return { categories: categories ?? [], loading: loading && !categories, error };
}
