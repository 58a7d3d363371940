import type { Booking } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { apiRead } from '@/lib/api-client';
import { noteListRead } from '@/lib/live-socket';
import { useLoad } from '@/lib/use-load';
import { bookingsStore } from '../atoms';

export const getBooking = (id: string) => apiRead<Booking>(`/bookings/${encodeURIComponent(id)}`);

/**
 * The payment page's booking, read through the store so its Paid flag stays live. When a push
 * removes it (its TV was sold or removed, so the server cancelled it) the last copy stays on
 * screen, flagged `cancelled`.
 */
export function useBooking(id: string) {
  const loadIntoStore = useSetAtom(bookingsStore.loadAtom);
  const load = useCallback(async () => {
    const { data, position } = await getBooking(id);
    loadIntoStore({ rows: [data], position, inScope: (b) => b._id === id });
    noteListRead(position);
  }, [id, loadIntoStore]);
  const state = useLoad(load);
  const row = useAtomValue(bookingsStore.stateAtom).rows.get(id) ?? null;
  const [seen, setSeen] = useState<Booking | null>(null);
  useEffect(() => {
    if (row) setSeen(row);
  }, [row]);
  const last = seen?._id === id ? seen : null;
  return { booking: row ?? last, cancelled: !row && last !== null, ...state };
}
