import type { BuyerCheckAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const checkBuyer = (email: string) =>
  apiRequest<BuyerCheckAnswer>(`/users_buyer/${encodeURIComponent(email)}`).then((a) => a.isBuyer);
