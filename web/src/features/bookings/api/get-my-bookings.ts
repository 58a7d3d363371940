import type { Booking } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useMemo } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useLoad } from '@/lib/use-load';
import { bookingsStore } from '../atoms';

export const getMyBookings = (email: string) => apiRequest<Booking[]>('/bookings', { query: { email } });

export function useMyBookings(email: string) {
  const load = useSetAtom(bookingsStore.loadAtom);
  const mine = (b: Booking) => b.email.toLowerCase() === email.toLowerCase();
  const state = useLoad(async () => load({ rows: await getMyBookings(email), inScope: mine }), [email]);
  const { rows } = useAtomValue(bookingsStore.stateAtom);
  const bookings = useMemo(() => [...rows.values()].filter(mine), [rows, email]);
  return { bookings, ...state };
}
