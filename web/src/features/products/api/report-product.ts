import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

/** A buyer flags a listing for the admin; it then shows 'Reported' to everyone. */
export const reportProduct = (id: string) => apiRequest<WriteAnswer>(`/product/add_reported/${encodeURIComponent(id)}`, { method: 'PUT' });

const patch = { reported: true };

export const useReportProduct = () => useProductWrite(reportProduct, patch, 'Add Report Successfully');
