/**
 * The server's schema of a booking (packages/contracts), on its own so the booking form can fetch
 * it, and zod with it, when it first checks the phone rather than with the page (ADR 0043).
 */
export { PlaceBookingBody } from '@tv-shop/contracts';
