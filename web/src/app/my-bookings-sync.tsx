import { CANCEL_REASON_TEXT, MAX_OWN_CANCELLATIONS } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { bookedBy, getMyBookings } from '@/features/bookings/api/get-my-bookings';
import { bookingsStore } from '@/features/bookings/atoms';
import { useCancelledBookingToast } from '@/features/bookings/cancellation';
import { myBookingsAtom, myBookingsReadyAtom, type MyBooking } from '@/lib/my-bookings';
import { hasRole, useSessionUser } from '@/lib/session';
import { onLiveReconnect } from '@/lib/live-socket';
import { listsReloadAtom } from '@/lib/use-live-list';

/**
 * For a signed-in buyer: tells them when the shop cancels a booking of theirs; reads their bookings once (pushes to their account keep the store
 * current after that; My Orders, or a resync after the tab missed pushes, reads them again) and
 * keeps `myBookingsAtom`, by product, to the open and paid ones and those the buyer may no longer
 * book (ADR 0076). A failed read leaves it as it
 * was: Book Now then stays, and the server still refuses a second booking with its own words.
 */
export function MyBookingsSync() {
  const user = useSessionUser();
  const email = hasRole(user, 'Buyer') ? user!.email.toLowerCase() : null;
  const loadIntoStore = useSetAtom(bookingsStore.loadAtom);
  const state = useAtomValue(bookingsStore.stateAtom);
  const setMine = useSetAtom(myBookingsAtom);
  const setReady = useSetAtom(myBookingsReadyAtom);
  // Whose bookings were read (or failed to be): set with the map below, in the same render.
  const [readFor, setReadFor] = useState<string | null>(null);
  // Read again, as every open list is, when the server could not replay what this tab missed.
  const reload = useAtomValue(listsReloadAtom);
  // A booking the shop cancelled is told wherever the buyer is, not only on My Orders.
  useCancelledBookingToast(email ?? '');

  useEffect(() => {
    if (!email) return;
    let alive = true;
    const read = () =>
      getMyBookings(email).then(
        ({ data, position }) => {
          if (!alive) return;
          loadIntoStore({ rows: data, position, inScope: bookedBy(email) });
          setReadFor(email);
        },
        () => alive && setReadFor(email),
      );
    void read();
    // A read an outage kept from us is made again once the live connection is back.
    const stop = onLiveReconnect(() => void read());
    return () => {
      alive = false;
      stop();
    };
  }, [email, reload, loadIntoStore]);

  useEffect(() => {
    const mine = new Map<string, MyBooking>();
    if (email) {
      const isMine = bookedBy(email);
      // Their own cancellations of each TV (each earlier placing is a row of its own).
      const cancelledByThem = new Map<string, number>();
      for (const b of state.rows.values()) {
        if (!isMine(b)) continue;
        if (b.status === 'open' || b.status === 'paid') mine.set(b.product_id, b.status);
        else if (b.cancel_reason === CANCEL_REASON_TEXT['buyer-cancelled'])
          cancelledByThem.set(b.product_id, (cancelledByThem.get(b.product_id) ?? 0) + 1);
      }
      for (const [productId, n] of cancelledByThem) if (n >= MAX_OWN_CANCELLATIONS && !mine.has(productId)) mine.set(productId, 'closed');
    }
    // Every card reads this map: a new one only when what it says changed.
    setMine((before) => (before.size === mine.size && [...mine].every(([id, status]) => before.get(id) === status) ? before : mine));
    setReady(email && readFor === email ? email : null);
  }, [email, state, setMine, readFor, setReady]);

  return null;
}
