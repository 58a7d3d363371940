import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** A buyer flags a listing for the admin, saying why (optional); it then shows 'Reported' to everyone. */
export const reportProduct = (id: string, reason: string) =>
  apiRequest<WriteAnswer>(`/product/add_reported/${encodeURIComponent(id)}`, { method: 'PUT', body: { reason } });
