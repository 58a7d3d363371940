import type { Booking } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { apiRead } from '@/lib/api-client';
import { noteListRead } from '@/lib/live-socket';
import { useSessionUser } from '@/lib/session';
import { usePageRead } from '@/lib/use-page-read';
import { bookingsStore } from '../atoms';

export const getBooking = (id: string) => apiRead<Booking>(`/bookings/${encodeURIComponent(id)}`);

/**
 * The payment page's booking, read through the store so its Paid and Cancelled states stay live
 * (a booking is cancelled when its TV was sold to someone else or removed).
 */
export function useBooking(id: string) {
  const loadIntoStore = useSetAtom(bookingsStore.loadAtom);
  const load = useCallback(async () => {
    const { data, position } = await getBooking(id);
    loadIntoStore({ rows: [data], position, inScope: (b) => b._id === id });
    noteListRead(position);
  }, [id, loadIntoStore]);
  // A 404 is an answer (no such booking, or another buyer's), not a failure a retry could mend.
  const { notFound, ...state } = usePageRead(load);
  const user = useSessionUser();
  const row = useAtomValue(bookingsStore.stateAtom).rows.get(id) ?? null;
  // Only the signed-in buyer's own, and never one the server just said is not theirs: the store
  // may still hold a row another account read in this tab (a session that ended, then another
  // sign-in sent back to the same page).
  const booking = !notFound && row && user && row.email.toLowerCase() === user.email.toLowerCase() ? row : null;
  return { booking, cancelled: booking?.status === 'cancelled', notFound, ...state };
}
