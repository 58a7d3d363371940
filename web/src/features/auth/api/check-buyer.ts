import { apiRequest } from '@/lib/api-client';

export const checkBuyer = (email: string) =>
  apiRequest<{ isBuyer: boolean }>(`/users_buyer/${encodeURIComponent(email)}`).then((a) => a.isBuyer);
