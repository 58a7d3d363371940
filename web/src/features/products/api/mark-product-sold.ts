import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

export const markProductSold = (id: string) =>
  apiRequest<WriteAnswer>(`/product/sold_status/${encodeURIComponent(id)}`, { method: 'PUT' });

const patch = { sold: true };

export const useMarkProductSold = () => useProductWrite(markProductSold, patch, 'Status Change Successfully');
