import type { Booking } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { bookingsStore } from './atoms';

export const BOOKING_CANCELLED_TEXT = 'A booking was cancelled: the TV is no longer available.';
/** Said on the payment page of a booking cancelled while it was open. */
export const BOOKING_CANCELLED_NOTICE = 'This TV is no longer available; your booking was cancelled.';

/**
 * The server cancels an unpaid booking whose TV was sold or removed; its push turns the row
 * Cancelled (it stays in My Orders with the reason). This tells the buyer when it happens, for
 * their own bookings only, and only for a change seen while the page is open.
 */
export function useCancelledBookingToast(email: string) {
  const { rows } = useAtomValue(bookingsStore.stateAtom);
  const seen = useRef<ReadonlyMap<string, Booking> | null>(null);
  useEffect(() => {
    const before = seen.current;
    seen.current = rows;
    if (!before) return;
    for (const [id, row] of rows) {
      if (row.status !== 'cancelled' || before.get(id)?.status !== 'open') continue;
      if (row.email.toLowerCase() === email.toLowerCase()) toast.error(BOOKING_CANCELLED_TEXT, { id: `cancelled-${id}` });
    }
  }, [rows, email]);
}
