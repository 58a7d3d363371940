import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

export const markProductAvailable = (id: string) =>
  apiRequest<WriteAnswer>(`/product/unsold_status/${encodeURIComponent(id)}`, { method: 'PUT' });

const patch = { sold: false };

export const useMarkProductAvailable = () => useProductWrite(markProductAvailable, patch, 'Status Change Successfully');
