import type { Product } from '@tv-shop/contracts';
import { useCallback, useMemo } from 'react';
import { apiRead } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getSellerProducts = (email: string) => apiRead<Product[]>('/seller_products', { query: { email } });

export function useSellerProducts(email: string) {
  const fetchList = useCallback(() => getSellerProducts(email), [email]);
  const scope = useMemo(() => productScopes.ofSeller(email), [email]);
  const view = useMemo(() => ({ kind: 'seller' as const, email }), [email]);
  return useProductList(fetchList, scope, view);
}
