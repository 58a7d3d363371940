import type { Product } from '@tv-shop/contracts';
import { useCallback, useMemo } from 'react';
import { apiRead } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { useProductList } from '../use-product-list';

export const getSellerProducts = (email: string) => apiRead<Product[]>('/seller_products', { query: { email } });

/** The signed-in seller's listings (the spec's read by email), kept live through their view (by id). */
export function useSellerProducts(email: string, sellerId: string) {
  const fetchList = useCallback(() => getSellerProducts(email), [email]);
  const scope = useMemo(() => productScopes.ofSeller(email), [email]);
  const view = useMemo(() => (sellerId ? { kind: 'seller' as const, id: sellerId } : null), [sellerId]);
  return useProductList(fetchList, scope, view);
}
