import { useCategories } from './api/get-categories';

/** A category page's category: its name, and whether the shop has no such category (known once the categories loaded). */
export function useCategory(categoryId: string): { name: string | null; missing: boolean } {
  const { categories, loading, error } = useCategories();
  const name = categories.find((c) => c._id === categoryId)?.category_name ?? null;
  return { name, missing: name === null && !loading && !error && categories.length > 0 };
}
