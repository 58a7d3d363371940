import type { SellerCheckAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const checkSeller = (email: string) =>
  apiRequest<SellerCheckAnswer>(`/users_seller/${encodeURIComponent(email)}`).then((a) => a.isSeller);
