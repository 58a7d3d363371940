import type { Booking } from '@tv-shop/contracts';
import { useCallback, useMemo } from 'react';
import { apiRead } from '@/lib/api-client';
import { useLiveList } from '@/lib/use-live-list';
import { bookingsStore } from '../atoms';

export const getSellerBookings = (email: string) => apiRead<Booking[]>('/seller_bookings', { query: { email } });

/** Every booking of the seller's TVs, newest first; pushes add rows and turn them Paid or Cancelled. */
export function useSellerBookings(email: string) {
  const fetchList = useCallback(() => getSellerBookings(email), [email]);
  const ofMine = useMemo(() => (b: Booking) => b.seller_email.toLowerCase() === email.toLowerCase(), [email]);
  const { items, ...state } = useLiveList(bookingsStore, fetchList, ofMine);
  const bookings = useMemo(() => [...items].sort((a, b) => b.booked_at.localeCompare(a.booked_at)), [items]);
  return { bookings, ...state };
}
