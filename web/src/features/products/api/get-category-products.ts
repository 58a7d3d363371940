import type { Product } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getCategoryProducts = (categoryId: string) => apiRequest<Product[]>(`/products/${encodeURIComponent(categoryId)}`);

export const useCategoryProducts = (categoryId: string) =>
  useProductList(() => getCategoryProducts(categoryId), productScopes.ofCategory(categoryId), [categoryId]);
