import type { Booking } from '@tv-shop/contracts';
import { useCallback, useMemo } from 'react';
import { apiRead } from '@/lib/api-client';
import { useLiveList } from '@/lib/use-live-list';
import { bookingsStore } from '../atoms';

export const getMyBookings = (email: string) => apiRead<Booking[]>('/bookings', { query: { email } });

export function useMyBookings(email: string) {
  const fetchList = useCallback(() => getMyBookings(email), [email]);
  const mine = useMemo(() => (b: Booking) => b.email.toLowerCase() === email.toLowerCase(), [email]);
  const { items, ...state } = useLiveList(bookingsStore, fetchList, mine);
  // Newest first, like the server's answer, also for a booking that arrived by push.
  const bookings = useMemo(() => [...items].sort((a, b) => b.booked_at.localeCompare(a.booked_at)), [items]);
  return { bookings, ...state };
}
