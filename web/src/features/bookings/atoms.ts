import type { Booking } from '@tv-shop/contracts';
import { createEntityStore } from '@/lib/entity-store';

/** The signed-in buyer's bookings; pushes turn them Paid without a refetch. */
export const bookingsStore = createEntityStore<Booking>();
