import type { Booking } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useState } from 'react';
import { ApiError, apiRead } from '@/lib/api-client';
import { noteListRead } from '@/lib/live-socket';
import { useLoad } from '@/lib/use-load';
import { bookingsStore } from '../atoms';

export const getBooking = (id: string) => apiRead<Booking>(`/bookings/${encodeURIComponent(id)}`);

/**
 * The payment page's booking, read through the store so its Paid and Cancelled states stay live
 * (a booking is cancelled when its TV was sold to someone else or removed).
 */
export function useBooking(id: string) {
  const loadIntoStore = useSetAtom(bookingsStore.loadAtom);
  // A 404 is an answer (no such booking, or another buyer's), not a failure a retry could mend.
  const [missing, setMissing] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const { data, position } = await getBooking(id);
      loadIntoStore({ rows: [data], position, inScope: (b) => b._id === id });
      noteListRead(position);
      setMissing(null);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setMissing(id);
      else throw error;
    }
  }, [id, loadIntoStore]);
  const state = useLoad(load);
  const booking = useAtomValue(bookingsStore.stateAtom).rows.get(id) ?? null;
  return { booking, cancelled: booking?.status === 'cancelled', notFound: missing === id && !booking, ...state };
}
