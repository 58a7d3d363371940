import type { AddProductBody, WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** The server fills seller, email, post date and category name from its own data. */
export const addProduct = (body: AddProductBody) =>
  apiRequest<WriteAnswer>('/products', { method: 'POST', body: { ...body, sold: false } });
