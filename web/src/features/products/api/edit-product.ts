import type { AddProductBody, EditProductBody, WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * A seller's own listing as they now want it: Add Product's body (ADR 0057). The answer's
 * `modifiedCount` is 0 when nothing differed; every open page shows the change by push. `edits`:
 * the listing's edits as the form was filled from it (ADR 0061), so an edit made since is not
 * overwritten unseen (409 naming `edits`). `key`: the form's Idempotency-Key, as for Add Product: a
 * try whose answer was lost lands once when sent again, answered as the first try was.
 */
export const editProduct = (id: string, body: AddProductBody & EditProductBody, key?: string) =>
  apiRequest<WriteAnswer>(`/product/${encodeURIComponent(id)}`, { method: 'PUT', body, idempotencyKey: key });
