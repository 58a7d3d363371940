import type { Booking } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { getMyBookings } from '@/features/bookings/api/get-my-bookings';
import { bookingsStore } from '@/features/bookings/atoms';
import { myBookingsAtom, type MyBooking } from '@/lib/my-bookings';
import { hasRole, useSessionUser } from '@/lib/session';

/**
 * For a signed-in buyer: reads their bookings once (pushes to their account keep the store
 * current after that, My Orders reads them again) and keeps `myBookingsAtom`, by product, to the
 * open and paid ones. A failed read leaves it as it was: Book Now then stays, and the server still
 * refuses a second booking with its own words.
 */
export function MyBookingsSync() {
  const user = useSessionUser();
  const email = hasRole(user, 'Buyer') ? user!.email.toLowerCase() : null;
  const loadIntoStore = useSetAtom(bookingsStore.loadAtom);
  const state = useAtomValue(bookingsStore.stateAtom);
  const setMine = useSetAtom(myBookingsAtom);

  useEffect(() => {
    if (!email) return;
    let alive = true;
    getMyBookings(email).then(
      ({ data, position }) => alive && loadIntoStore({ rows: data, position, inScope: (b: Booking) => b.email.toLowerCase() === email }),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [email, loadIntoStore]);

  useEffect(() => {
    const mine = new Map<string, MyBooking>();
    if (email)
      for (const b of state.rows.values())
        if (b.email.toLowerCase() === email && (b.status === 'open' || b.status === 'paid')) mine.set(b.product_id, b.status);
    setMine(mine);
  }, [email, state, setMine]);

  return null;
}
