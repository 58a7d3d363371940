import type { AddProductBody, WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * A seller's own listing as they now want it: Add Product's body (ADR 0057). The answer's
 * `modifiedCount` is 0 when nothing differed; every open page shows the change by push.
 */
export const editProduct = (id: string, body: AddProductBody) =>
  apiRequest<WriteAnswer>(`/product/${encodeURIComponent(id)}`, { method: 'PUT', body });
