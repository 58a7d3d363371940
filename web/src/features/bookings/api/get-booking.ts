import type { Booking } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { apiRequest } from '@/lib/api-client';
import { useLoad } from '@/lib/use-load';
import { bookingsStore } from '../atoms';

export const getBooking = (id: string) => apiRequest<Booking>(`/bookings/${encodeURIComponent(id)}`);

/** The payment page's booking, read through the store so its Paid flag stays live. */
export function useBooking(id: string) {
  const load = useSetAtom(bookingsStore.loadAtom);
  const state = useLoad(async () => {
    const booking = await getBooking(id);
    load({ rows: [booking], inScope: (b) => b._id === id });
  }, [id]);
  const booking = useAtomValue(bookingsStore.stateAtom).rows.get(id) ?? null;
  return { booking, ...state };
}
