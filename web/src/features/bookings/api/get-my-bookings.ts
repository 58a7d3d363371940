import type { Booking } from '@tv-shop/contracts';
import { useCallback, useMemo } from 'react';
import { apiRead } from '@/lib/api-client';
import { useLiveList } from '@/lib/use-live-list';
import { bookingsStore } from '../atoms';

export const getMyBookings = (email: string) => apiRead<Booking[]>('/bookings', { query: { email } });

/** Whether a booking is the buyer's with this email: what their list answers for. */
export const bookedBy =
  (email: string) =>
  (b: Booking): boolean =>
    b.email.toLowerCase() === email.toLowerCase();

export function useMyBookings(email: string) {
  const fetchList = useCallback(() => getMyBookings(email), [email]);
  const mine = useMemo(() => bookedBy(email), [email]);
  const { items, ...state } = useLiveList(bookingsStore, fetchList, mine);
  // Newest first, like the server's answer, also for a booking that arrived by push.
  const bookings = useMemo(() => [...items].sort((a, b) => b.booked_at.localeCompare(a.booked_at)), [items]);
  return { bookings, ...state };
}
