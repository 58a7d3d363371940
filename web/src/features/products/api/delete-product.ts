import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

/** The admin removes a reported listing; it vanishes from every open page by push. */
export const deleteProduct = (id: string) => apiRequest<WriteAnswer>(`/product/${encodeURIComponent(id)}`, { method: 'DELETE' });

const patch = 'remove' as const;

export const useDeleteProduct = () => useProductWrite(deleteProduct, patch, 'Successfully Delete Reported Product');
