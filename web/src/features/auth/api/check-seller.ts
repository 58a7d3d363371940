import { apiRequest } from '@/lib/api-client';

export const checkSeller = (email: string) =>
  apiRequest<{ isSeller: boolean }>(`/users_seller/${encodeURIComponent(email)}`).then((a) => a.isSeller);
