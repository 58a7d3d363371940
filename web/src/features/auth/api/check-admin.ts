import { apiRequest } from '@/lib/api-client';

export const checkAdmin = (email: string) =>
  apiRequest<{ isAdmin: boolean }>(`/users_admin/${encodeURIComponent(email)}`).then((a) => a.isAdmin);
