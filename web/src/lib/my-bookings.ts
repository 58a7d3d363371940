import { atom, useAtomValue } from 'jotai';

/**
 * Where the signed-in buyer stands with a TV: booked and not paid yet, bought, or no longer
 * bookable by them (they cancelled their booking of it as many times as the shop allows, ADR 0076).
 */
export type MyBooking = 'open' | 'paid' | 'closed';

/**
 * The signed-in buyer's live bookings by product id (none for anyone else). Kept by the app
 * (app/my-bookings-sync.tsx) from the buyer's bookings, which pushes keep current, so a card or a
 * product page can show "Booked" instead of a Book Now that the server would refuse.
 */
export const myBookingsAtom = atom<ReadonlyMap<string, MyBooking>>(new Map());

export const useMyBookingOf = (productId: string): MyBooking | undefined => useAtomValue(myBookingsAtom).get(productId);

/**
 * The buyer (by email, lower case) whose bookings `myBookingsAtom` holds once they were read, or
 * null before: what waits for them (the booking form opened after signing in) knows when to decide.
 */
export const myBookingsReadyAtom = atom<string | null>(null);
