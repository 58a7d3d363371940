import type { PaymentIntentAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** The server charges the booking's own price; the answer says which card facility to use. */
export const createPaymentIntent = (bookingId: string) =>
  apiRequest<PaymentIntentAnswer>('/create-payment-intent', { method: 'POST', body: { bookingId } });
