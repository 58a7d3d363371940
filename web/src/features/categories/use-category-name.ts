import { useCategories } from './api/get-categories';

/** The heading of a category page: its name once the categories are known. */
export function useCategoryName(categoryId: string): string | null {
  const { categories } = useCategories();
  return categories.find((c) => c._id === categoryId)?.category_name ?? null;
}
