import { apiRequest } from '@/lib/api-client';

/** `GET /jwt?email=`: a fresh token for the signed-in caller, so a long visit stays signed in. */
export const refreshToken = (email: string) => apiRequest<{ token: string }>('/jwt', { query: { email } });
