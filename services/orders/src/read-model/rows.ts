import type { Booking } from '@tv-shop/contracts';

/** Poisha in the read models, TK on the wire. */
const toTk = (poisha: number | string) => Number(poisha) / 100;

/** A row of `rm_orders.bookings`. */
export interface BookingRow {
  id: string;
  product_id: string;
  product_name: string;
  product_image: string;
  /** The cover's thumbnail as booked; null when the listing had none. */
  product_thumbnail: string | null;
  price_poisha: string;
  buyer_id: string;
  buyer_name: string;
  buyer_email: string;
  phone: string;
  meeting_location: string;
  paid: boolean;
  cancelled: boolean;
  cancel_reason: string | null;
  transaction_id: string | null;
  booked_at: Date;
  seller_id: string | null;
  seller_email: string;
  /** Money given back for payments of this booking that bought nothing; a placing made again starts at none (ADR 0063). */
  refunded_poisha: string;
  /** A cancelled placing kept when the booking was placed again (ADR 0063). */
  earlier_placing: boolean;
  /** From `product_sellers`, read with the booking: the seller's name now, and the listing's phone now. */
  seller_name: string | null;
  seller_phone: string | null;
}
/** Whether a booking shows how to reach its seller: open or paid, not cancelled. */
export const showsContact = (r: Pick<BookingRow, 'paid' | 'cancelled'>) => r.paid || !r.cancelled;
/** `showsContact` in SQL, of the bookings row named `alias`. */
export const showsContactSql = (alias: string) => `(${alias}.paid or not ${alias}.cancelled)`;

export const toBooking = (r: BookingRow): Booking => ({
  _id: r.id,
  porduct_name: r.product_name,
  price: toTk(r.price_poisha),
  username: r.buyer_name,
  email: r.buyer_email,
  phone_number: r.phone,
  meeting_location: r.meeting_location,
  productImage: r.product_image,
  productThumbnail: r.product_thumbnail ?? r.product_image,
  product_id: r.product_id,
  paid: r.paid,
  ...(r.transaction_id ? { transationId: r.transaction_id } : {}),
  status: r.paid ? 'paid' : r.cancelled ? 'cancelled' : 'open',
  ...(r.cancelled && !r.paid && r.cancel_reason ? { cancel_reason: r.cancel_reason } : {}),
  ...(Number(r.refunded_poisha) > 0 ? { refunded: toTk(r.refunded_poisha) } : {}),
  ...(r.earlier_placing ? { earlier_placing: true as const } : {}),
  booked_at: new Date(r.booked_at).toISOString(),
  seller_email: r.seller_email,
  // Whom to call, while there is someone to meet: an open or paid booking, not a cancelled one.
  ...(showsContact(r) && r.seller_name ? { seller_name: r.seller_name } : {}),
  ...(showsContact(r) && r.seller_phone ? { seller_phone: r.seller_phone } : {}),
});

/**
 * A booking as its seller reads it: the buyer's payment id (`transationId`) is the buyer's and the
 * admin's to see, not the seller's. The same object when it carries none.
 */
export const forSeller = (b: Booking): Booking => {
  if (b.transationId === undefined) return b;
  const { transationId: _buyers, ...rest } = b;
  return rest;
};
