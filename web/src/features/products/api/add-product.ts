import type { AddProductBody, WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * The server fills seller, email, post date and category name from its own data. `key`: the
 * form's Idempotency-Key, the same for each try of the same listing, so a try whose answer was
 * lost (the listing was made) does not make a second listing when the seller presses Add again.
 */
export const addProduct = (body: AddProductBody, key?: string) =>
  apiRequest<WriteAnswer>('/products', { method: 'POST', body: { ...body, sold: false }, idempotencyKey: key });
