import type { ProductPageAnswer } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';

/** A product with its seller's profile (`seller` is null when the account is gone). */
export const readProductPage = (id: string) => apiRead<ProductPageAnswer>(`/product/${encodeURIComponent(id)}`);
