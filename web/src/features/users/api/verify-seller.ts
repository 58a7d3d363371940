import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useUserWrite } from '../use-user-write';

/** Approving a seller puts the green check on every card of theirs. */
export const verifySeller = (id: string) =>
  apiRequest<WriteAnswer>(`/user/seller_verified/${encodeURIComponent(id)}`, { method: 'PUT', body: {} });

const patch = { verified: true };

export const useVerifySeller = () => useUserWrite(verifySeller, patch, 'Status Change Successfully');
