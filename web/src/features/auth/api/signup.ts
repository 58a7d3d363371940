import type { AuthAnswer, SignupBody } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const signup = (body: SignupBody) => apiRequest<AuthAnswer>('/auth/signup', { method: 'POST', body, auth: false });
