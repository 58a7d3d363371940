import { rooms, type EventOf, type ProductListing } from '@tv-shop/contracts';
import type { Projection, ProjectionContext } from '@tv-shop/platform';
import { toBooking, type BookingRow } from './rows';

/** A booking is seen by its buyer, the seller of the booked TV, and the admin; nobody else. */
const emitBooking = async (ctx: ProjectionContext, id: string) => {
  if (ctx.replaying) return; // nobody hears a replay: no need to read what would be announced
  const { rows } = await ctx.db.query<BookingRow>('select * from bookings where id = $1', [id]);
  const r = rows[0];
  if (!r) return;
  const to = [rooms.user(r.buyer_id), rooms.admins];
  if (r.seller_id) to.push(rooms.user(r.seller_id));
  ctx.emit({ entity: 'booking', op: 'upsert', id, row: toBooking(r) }, to);
};

const CANCEL_REASONS: Record<EventOf<'BookingCancelled'>['data']['reason'], string> = {
  'product-sold': 'sold to another buyer',
  'product-removed': 'listing removed',
  'buyer-deleted': 'account deleted',
};

/** The projection's name: its checkpoint's, which orders' policy waits for before it reads the bookings. */
export const ORDERS_PROJECTION = 'orders';

/**
 * Bookings for My Orders (the buyer's history, cancelled ones kept with their reason), the
 * seller's My Bookings, and the payment page. The seller of each product comes from its
 * ProductListed event, kept in this projection's own table.
 */
export const ordersProjection: Projection = {
  name: ORDERS_PROJECTION,
  schema: 'rm_orders',
  setup: `
    create table product_sellers (product_id text primary key, seller_id text not null, seller_email text not null);
    create table bookings (
      id text primary key, product_id text not null, product_name text not null, product_image text not null,
      price_poisha bigint not null, buyer_id text not null, buyer_name text not null, buyer_email text not null,
      phone text not null, meeting_location text not null, paid boolean not null default false,
      cancelled boolean not null default false, cancel_reason text, transaction_id text, placed_at bigint not null,
      booked_at timestamptz not null, seller_id text, seller_email text not null default ''
    );
    create index bookings_buyer on bookings (buyer_email, placed_at desc);
    create index bookings_seller on bookings (seller_id, placed_at desc);
    create index bookings_product on bookings (product_id) where not paid and not cancelled;`,
  handlers: {
    ProductListed: async (e, ctx) => {
      const l = e.data as ProductListing;
      await ctx.db.query('insert into product_sellers values ($1, $2, $3) on conflict do nothing', [
        l.productId,
        l.sellerId,
        l.sellerEmail,
      ]);
    },
    BookingPlaced: async (e, ctx) => {
      const d = e.data as EventOf<'BookingPlaced'>['data'];
      // A booking cancelled earlier may be placed again in the same stream: it starts afresh.
      await ctx.db.query(
        `insert into bookings (id, product_id, product_name, product_image, price_poisha, buyer_id, buyer_name, buyer_email, phone,
           meeting_location, placed_at, booked_at, seller_id, seller_email)
         select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, s.seller_id, coalesce(s.seller_email, '')
         from (select 1) one left join product_sellers s on s.product_id = $2
         on conflict (id) do update set cancelled = false, cancel_reason = null, paid = false, transaction_id = null,
           phone = excluded.phone, meeting_location = excluded.meeting_location, price_poisha = excluded.price_poisha,
           placed_at = excluded.placed_at, booked_at = excluded.booked_at`,
        [
          d.bookingId,
          d.productId,
          d.productName,
          d.productImage,
          d.pricePoisha,
          d.buyerId,
          d.buyerName,
          d.buyerEmail,
          d.phone,
          d.meetingLocation,
          e.position,
          e.metadata.at,
        ],
      );
      await emitBooking(ctx, d.bookingId);
    },
    BookingPaid: async (e, ctx) => {
      const d = e.data as EventOf<'BookingPaid'>['data'];
      await ctx.db.query('update bookings set paid = true, transaction_id = $2 where id = $1', [d.bookingId, d.paymentIntentId]);
      await emitBooking(ctx, d.bookingId);
    },
    BookingCancelled: async (e, ctx) => {
      const d = e.data as EventOf<'BookingCancelled'>['data'];
      await ctx.db.query('update bookings set cancelled = true, cancel_reason = $2 where id = $1', [
        d.bookingId,
        CANCEL_REASONS[d.reason] ?? d.reason,
      ]);
      await emitBooking(ctx, d.bookingId);
    },
  },
};
