import type { Product } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getReportedProducts = () => apiRequest<Product[]>('/reported_products');

export const useReportedProducts = () => useProductList(getReportedProducts, productScopes.reported, []);
