import { CANCEL_REASON_TEXT, type Booking } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { bookingsStore } from './atoms';

/**
 * The toast for one of the buyer's bookings that the shop cancelled, naming the TV, by its
 * reason: when the seller changed the listing, the TV is still for sale, as it is now.
 */
export function cancelledToast(booking: Booking): string {
  const why =
    booking.cancel_reason === CANCEL_REASON_TEXT['listing-edited']
      ? 'the seller changed the listing. Book it again if you still want it.'
      : 'the TV is no longer available.';
  return `Your booking of ${booking.porduct_name} was cancelled: ${why}`;
}
/** Said on the payment page of a booking cancelled while it was open. */
export const BOOKING_CANCELLED_NOTICE = 'This TV is no longer available; your booking was cancelled.';

/** Why a cancelled booking can no longer be paid, on its payment page: the TV may still be for sale. */
export function cancelledNotice(booking: Booking): string {
  if (booking.cancel_reason === CANCEL_REASON_TEXT['buyer-cancelled'])
    return 'You cancelled this booking. To buy this TV, book it again from its page.';
  if (booking.cancel_reason === CANCEL_REASON_TEXT['listing-edited'])
    return 'The seller changed this listing after you booked it, so your booking was cancelled. Book it again from its page to buy it as it is now.';
  return BOOKING_CANCELLED_NOTICE;
}

/**
 * The server cancels an unpaid booking whose TV was sold, removed or changed by its seller; its
 * push turns the row Cancelled (it stays in My Orders with the reason). This tells the buyer when
 * it happens, wherever they are in the app (their bookings are kept app-wide, MyBookingsSync),
 * for their own bookings only; not for a booking they cancelled themselves (here or in another tab).
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
      if (row.cancel_reason === CANCEL_REASON_TEXT['buyer-cancelled']) continue;
      if (row.email.toLowerCase() === email.toLowerCase()) toast.error(cancelledToast(row), { id: `cancelled-${id}` });
    }
  }, [rows, email]);
}
