import type { ProductPageAnswer } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';

/** The listing as it is now, and the log position it reflects: for a booking dialog whose TV changed, left, or was refused. */
export const readListing = async (id: string) => {
  const { data, position } = await apiRead<ProductPageAnswer>(`/product/${encodeURIComponent(id)}`);
  return { product: data.product, position };
};
