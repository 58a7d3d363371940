import type { AuthAnswer, LoginBody } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const login = (body: LoginBody) => apiRequest<AuthAnswer>('/auth/login', { method: 'POST', body, auth: false });
