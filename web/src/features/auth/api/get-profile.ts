import type { User } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const getProfile = (email: string) => apiRequest<User>('/users', { query: { email } });
