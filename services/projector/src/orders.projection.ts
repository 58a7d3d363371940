import type { EventOf } from '@tv-shop/contracts';
import type { Projection, ProjectionContext } from '@tv-shop/platform';
import { rooms } from './rooms';
import { toBooking, type BookingRow } from './rows';

const emitBooking = async (ctx: ProjectionContext, id: string) => {
  const { rows } = await ctx.db.query<BookingRow>('select * from bookings where id = $1', [id]);
  const r = rows[0];
  if (r) ctx.emit({ entity: 'booking', op: 'upsert', id, row: toBooking(r) }, [rooms.user(r.buyer_id), rooms.admins]);
};

/** Bookings for My Orders and the payment page; only their buyer (and the admin) sees them. */
export const ordersProjection: Projection = {
  name: 'orders',
  schema: 'rm_orders',
  setup: `
    create table bookings (
      id text primary key, product_id text not null, product_name text not null, product_image text not null,
      price_poisha bigint not null, buyer_id text not null, buyer_name text not null, buyer_email text not null,
      phone text not null, meeting_location text not null, paid boolean not null default false,
      cancelled boolean not null default false, transaction_id text, placed_at bigint not null
    );
    create index bookings_buyer on bookings (buyer_email, placed_at desc) where not cancelled;
    create index bookings_product on bookings (product_id) where not paid and not cancelled;`,
  handlers: {
    BookingPlaced: async (e, ctx) => {
      const d = e.data as EventOf<'BookingPlaced'>['data'];
      // A booking cancelled earlier may be placed again in the same stream.
      await ctx.db.query(
        `insert into bookings (id, product_id, product_name, product_image, price_poisha, buyer_id, buyer_name, buyer_email, phone, meeting_location, placed_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         on conflict (id) do update set cancelled = false, paid = false, transaction_id = null, phone = excluded.phone,
           meeting_location = excluded.meeting_location, price_poisha = excluded.price_poisha, placed_at = excluded.placed_at`,
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
      const { rows } = await ctx.db.query<{ buyer_id: string }>('update bookings set cancelled = true where id = $1 returning buyer_id', [
        d.bookingId,
      ]);
      if (rows[0]) ctx.emit({ entity: 'booking', op: 'remove', id: d.bookingId }, [rooms.user(rows[0].buyer_id), rooms.admins]);
    },
  },
};
