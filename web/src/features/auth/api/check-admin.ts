import type { AdminCheckAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const checkAdmin = (email: string) =>
  apiRequest<AdminCheckAnswer>(`/users_admin/${encodeURIComponent(email)}`).then((a) => a.isAdmin);
