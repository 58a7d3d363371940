import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

export const markProductSold = (id: string) => apiRequest<WriteAnswer>(`/product/sold_status/${encodeURIComponent(id)}`, { method: 'PUT' });

// Selling a TV also ends its advertising, as the server does.
const patch = { sold: true, advertised: false };

export const useMarkProductSold = () => useProductWrite(markProductSold, patch, 'Status Change Successfully');
