import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

/** A seller takes their own TV off the shop for good; it vanishes from every open page by push (ADR 0054). */
export const withdrawProduct = (id: string) => apiRequest<WriteAnswer>(`/product/withdraw/${encodeURIComponent(id)}`, { method: 'PUT' });

const patch = 'remove' as const;

export const useWithdrawProduct = () => useProductWrite(withdrawProduct, patch, 'Listing withdrawn');
