import type { SellerPageAnswer } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';

/** A seller's profile and their available listings, newest first. */
export const getSellerPage = (id: string) => apiRead<SellerPageAnswer>(`/sellers/${encodeURIComponent(id)}`);
