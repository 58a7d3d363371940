import type { AuthAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** `GET /jwt?email=`: a fresh token for the signed-in caller, so a long visit stays signed in. */
export const refreshToken = (email: string) => apiRequest<Pick<AuthAnswer, 'token'>>('/jwt', { query: { email } });
