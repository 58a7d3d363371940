import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

export const advertiseProduct = (id: string) =>
  apiRequest<WriteAnswer>(`/product/get_advertise/${encodeURIComponent(id)}`, { method: 'PUT' });

const patch = { advertised: true };

export const useAdvertiseProduct = () => useProductWrite(advertiseProduct, patch, 'Add Advertised Successfully');
