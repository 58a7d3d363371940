import type { Product } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getAllProducts = () => apiRequest<Product[]>('/all_products');

export const useAllProducts = () => useProductList(getAllProducts, productScopes.all, []);
