import type { RecordPaymentBody, WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

export const recordPayment = (body: RecordPaymentBody) => apiRequest<WriteAnswer>('/payments', { method: 'POST', body });
