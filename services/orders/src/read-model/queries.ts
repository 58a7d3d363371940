import type pg from 'pg';
import { tk, type Booking } from '@tv-shop/contracts';
import { AppError } from '@tv-shop/platform';
import { forSeller, toBooking, type BookingRow } from './rows';

/**
 * Bookings with how to reach their seller (\`product_sellers\`). Read by name from the row as JSON:
 * while a shop from before those columns rebuilds the tables beside the old ones, the old ones
 * (without them) still answer.
 */
const BOOKINGS = `select b.*, to_jsonb(s) ->> 'seller_name' as seller_name, to_jsonb(s) ->> 'phone' as seller_phone
  from rm_orders.bookings b left join rm_orders.product_sellers s on s.product_id = b.product_id`;

/** Which of these products are still listed and unsold (catalog's read model): the host passes it in. */
export type UnsoldOf = (productIds: readonly string[]) => Promise<Set<string>>;

/** Orders' read-model queries (`rm_orders`). Everything here is a read: writes go through commands. */
export class OrdersQueries {
  constructor(private readonly pool: pg.Pool) {}

  /** The address of the product picture each booking shows, and of its thumbnail, cancelled and paid ones included. */
  async imageUrls(): Promise<string[]> {
    // The thumbnail read by name from the row as JSON: while a shop from before product_thumbnail
    // rebuilds this table beside the old one, the old one (without it) still answers.
    const { rows } = await this.pool.query<{ url: string | null }>(
      `select distinct u.url from rm_orders.bookings b
       cross join unnest(array[b.product_image, to_jsonb(b) ->> 'product_thumbnail']) as u(url)`,
    );
    return rows.flatMap((r) => (r.url ? [r.url] : []));
  }
  /** A buyer's whole order history, cancelled bookings included (with their reason), newest first. */
  async bookingsOf(email: string): Promise<Booking[]> {
    const { rows } = await this.pool.query<BookingRow>(`${BOOKINGS} where b.buyer_email = $1 order by b.placed_at desc`, [email]);
    return rows.map(toBooking);
  }
  /** Every booking of a seller's products, newest first: who is coming, and how to reach them; not how the buyer paid (`forSeller`). */
  async bookingsOfSeller(sellerId: string): Promise<Booking[]> {
    const { rows } = await this.pool.query<BookingRow>(`${BOOKINGS} where b.seller_id = $1 order by b.placed_at desc`, [sellerId]);
    return rows.map((r) => forSeller(toBooking(r)));
  }
  /**
   * A buyer's open bookings at a price (poisha) whose TV is still for sale: the spec's `{ price }`
   * payment call. Whether a TV is for sale is catalog's to say, through `unsoldOf`.
   */
  async openBookingsAtPrice(buyerId: string, pricePoisha: number, unsoldOf: UnsoldOf): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string; product_id: string }>(
      `select id, product_id from rm_orders.bookings where buyer_id = $1 and price_poisha = $2 and not paid and not cancelled`,
      [buyerId, pricePoisha],
    );
    const unsold = await unsoldOf([...new Set(rows.map((r) => r.product_id))]);
    return rows.filter((r) => unsold.has(r.product_id)).map((r) => r.id);
  }
  /**
   * The booking the spec's client means when it pays with `{ price }` alone (in TK, as the form
   * sends it). That is honoured only when it is unambiguous: the buyer has exactly one open
   * booking at that price whose TV is still for sale. Otherwise 422 on `bookingId`, saying why.
   * The amount charged is still that booking's own price.
   */
  async bookingToPayAt(buyerId: string, price: unknown, unsoldOf: UnsoldOf): Promise<string> {
    const tkPrice = tk.safeParse(price);
    const ids = tkPrice.success ? await this.openBookingsAtPrice(buyerId, Math.round(tkPrice.data * 100), unsoldOf) : [];
    if (ids.length === 1) return ids[0]!;
    const why = !tkPrice.success
      ? 'Say which booking to pay (bookingId)'
      : ids.length === 0
        ? 'You have no open booking at that price; say which booking to pay (bookingId)'
        : 'You have several open bookings at that price; say which one to pay (bookingId)';
    throw new AppError('unprocessable', why, { field: 'bookingId' });
  }
  /**
   * Unpaid, uncancelled bookings of a product, or of a buyer, placed before log position
   * `position`: what orders' cancellation policy cancels when that product goes or that buyer is
   * deleted. The caller first waits for the projection (`ORDERS_PROJECTION`) to reach `position`.
   */
  async unpaidBookingsPlacedBefore(by: { productId: string } | { buyerId: string }, position: number): Promise<string[]> {
    const [column, value] = 'productId' in by ? ['product_id', by.productId] : ['buyer_id', by.buyerId];
    const { rows } = await this.pool.query<{ id: string }>(
      `select id from rm_orders.bookings where ${column} = $1 and not paid and not cancelled and placed_at < $2`,
      [value, position],
    );
    return rows.map((r) => r.id);
  }
  async booking(id: string): Promise<(Booking & { buyerId: string }) | null> {
    const { rows } = await this.pool.query<BookingRow>(`${BOOKINGS} where b.id = $1`, [id]);
    return rows[0] ? { ...toBooking(rows[0]), buyerId: rows[0].buyer_id } : null;
  }
}
