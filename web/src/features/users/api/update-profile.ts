import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** `PUT /api/users?email=`: the signed-in account's own name and photo (the server refuses another's). */
export const updateProfile = (email: string, body: { name?: string; photoURL?: string }) =>
  apiRequest<WriteAnswer>(`/users?email=${encodeURIComponent(email)}`, { method: 'PUT', body });
