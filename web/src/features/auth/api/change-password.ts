import type { ChangePasswordBody, PasswordChangedAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** The signed-in account's own password; the answer's token keeps this session (the others end). */
export const changePassword = (body: ChangePasswordBody) => apiRequest<PasswordChangedAnswer>('/account/password', { method: 'PUT', body });
