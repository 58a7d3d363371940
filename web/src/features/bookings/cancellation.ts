import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { bookingsStore } from './atoms';

export const BOOKING_CANCELLED_TEXT = 'A booking was cancelled: the TV is no longer available.';
/** Said on the payment page of a booking cancelled while it was open. */
export const BOOKING_CANCELLED_NOTICE = 'This TV is no longer available; your booking was cancelled.';

/**
 * The server cancels an unpaid booking whose TV was sold or removed, and its push removes the
 * row from My Orders; this tells the buyer why, for their own bookings only.
 */
export function useCancelledBookingToast(email: string) {
  const removed = useAtomValue(bookingsStore.lastRemovedAtom);
  // A removal from before the page opened is old news.
  const told = useRef(removed);
  useEffect(() => {
    if (!removed || removed === told.current) return;
    told.current = removed;
    if (removed.row.email.toLowerCase() === email.toLowerCase())
      toast.error(BOOKING_CANCELLED_TEXT, { id: `cancelled-${removed.row._id}` });
  }, [removed, email]);
}
