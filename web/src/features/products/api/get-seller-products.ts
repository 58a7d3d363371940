import type { Product } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getSellerProducts = (email: string) => apiRequest<Product[]>('/seller_products', { query: { email } });

export const useSellerProducts = (email: string) => useProductList(() => getSellerProducts(email), productScopes.ofSeller(email), [email]);
