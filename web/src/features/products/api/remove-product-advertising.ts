import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

export const removeProductAdvertising = (id: string) =>
  apiRequest<WriteAnswer>(`/product/remove_advertise/${encodeURIComponent(id)}`, { method: 'PUT' });

const patch = { advertised: false };

export const useRemoveProductAdvertising = () => useProductWrite(removeProductAdvertising, patch, 'Remove Advertised Successfully');
