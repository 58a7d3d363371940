import type { AuthAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** Trades a Google Identity Services credential for our own token; always a Buyer when new. */
export const googleLogin = (idToken: string) => apiRequest<AuthAnswer>('/auth/google', { method: 'POST', body: { idToken }, auth: false });
