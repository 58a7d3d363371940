import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * Signs the account out everywhere, this tab included (ADR 0062): every session's token stops
 * working, and the holder signs in again.
 */
export const endAllSessions = (): Promise<WriteAnswer> => apiRequest<WriteAnswer>('/account/sessions', { method: 'DELETE' });
