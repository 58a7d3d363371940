import type { Product } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getReportedProducts = () => apiRead<Product[]>('/reported_products');

export const useReportedProducts = () => useProductList(getReportedProducts, productScopes.reported);
