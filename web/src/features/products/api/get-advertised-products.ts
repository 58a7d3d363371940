import type { Product } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getAdvertisedProducts = () => apiRead<Product[]>('/advertise_products');

export const useAdvertisedProducts = () => useProductList(getAdvertisedProducts, productScopes.advertised);
