import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const markProductAvailable = (id: string) =>
  apiRequest<WriteAnswer>(`/product/unsold_status/${encodeURIComponent(id)}`, { method: 'PUT' });
