import type { PublicConfig } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const getPublicConfig = () => apiRequest<PublicConfig>('/config', { auth: false });
