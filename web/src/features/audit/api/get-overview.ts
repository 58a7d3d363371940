import type { AdminOverview } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const getOverview = () => apiRequest<AdminOverview>('/admin/overview');
