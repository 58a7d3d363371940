import type { PlaceBookingBody, WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** Price, names and email are taken by the server from its own data; 409 if the TV is gone. */
export const placeBooking = (body: PlaceBookingBody) => apiRequest<WriteAnswer>('/bookings', { method: 'POST', body });
