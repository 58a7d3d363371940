import type { Product } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getAllProducts = () => apiRead<Product[]>('/all_products');

export const useAllProducts = () => useProductList(getAllProducts, productScopes.all);
