import type { Product } from '@tv-shop/contracts';
import { useCallback, useMemo } from 'react';
import { apiRead } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getCategoryProducts = (categoryId: string) => apiRead<Product[]>(`/products/${encodeURIComponent(categoryId)}`);

export function useCategoryProducts(categoryId: string) {
  const fetchList = useCallback(() => getCategoryProducts(categoryId), [categoryId]);
  const scope = useMemo(() => productScopes.ofCategory(categoryId), [categoryId]);
  return useProductList(fetchList, scope);
}
