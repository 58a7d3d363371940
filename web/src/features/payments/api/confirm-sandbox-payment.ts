import type { SandboxConfirmAnswer, SandboxConfirmBody } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** The server's stand-in for the card provider; a declined card answers 200 with `error`. */
export const confirmSandboxPayment = (body: SandboxConfirmBody) =>
  apiRequest<SandboxConfirmAnswer>('/payment-sandbox/confirm', { method: 'POST', body });
