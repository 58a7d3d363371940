import { cancelReasonText, rooms, type Booking, type Change, type EventOf, type ProductListing } from '@tv-shop/contracts';
import {
  LastChanges,
  RowSet,
  uuidFromName,
  type BatchContext,
  type Projection,
  type ProjectionContext,
  type RecordedEvent,
} from '@tv-shop/platform';
import { forSeller, showsContact, showsContactSql, toBooking, type BookingRow } from './rows';

/**
 * Who hears of a booking: its buyer, the seller of the booked TV, and the admin; nobody else. A
 * change of how to reach the seller alone (`contactOnly`) is news to the buyer, not to the seller,
 * whose app would take each of their bookings heard again for a new one. The buyer's payment id
 * stays the buyer's (and the admin's): the seller hears the row without it, as their list reads it.
 */
const announce = (
  send: (change: Change, to: string[]) => void,
  r: Pick<BookingRow, 'id' | 'buyer_id' | 'seller_id'>,
  row: Booking,
  contactOnly = false,
) => {
  const change = (heard: Booking): Change => ({ entity: 'booking', op: 'upsert', id: r.id, row: heard });
  const to = [rooms.user(r.buyer_id), rooms.admins];
  if (!r.seller_id || contactOnly) return send(change(row), to);
  const sellers = forSeller(row);
  if (sellers === row) return send(change(row), [...to, rooms.user(r.seller_id)]);
  send(change(row), to);
  send(change(sellers), [rooms.user(r.seller_id)]);
};

const SELECT_BOOKINGS = `select b.*, s.seller_name, s.phone as seller_phone from bookings b
  left join product_sellers s on s.product_id = b.product_id`;

const emitBooking = async (ctx: ProjectionContext, id: string) => {
  if (ctx.replaying) return; // nobody hears a replay: no need to read what would be announced
  const { rows } = await ctx.db.query<BookingRow>(`${SELECT_BOOKINGS} where b.id = $1`, [id]);
  const r = rows[0];
  if (r) announce((c, to) => ctx.emit(c, to), r, toBooking(r));
};

/**
 * The bookings that show how to reach their seller (open or paid: `showsContact`) among those
 * `where` names (on `b`, `$1` its parameter), announced again to their buyers: it changed.
 */
const emitContactOf = async (ctx: ProjectionContext, where: string, param: string) => {
  if (ctx.replaying) return;
  const { rows } = await ctx.db.query<BookingRow>(`${SELECT_BOOKINGS} where ${where} and ${showsContactSql('b')} order by b.placed_at`, [
    param,
  ]);
  for (const r of rows) announce((c, to) => ctx.emit(c, to), r, toBooking(r), true);
};

/** A refund that names the placing it paid for (events from before it was recorded do not: the booking's own row). */
const namesPlacing = (d: EventOf<'PaymentRefunded'>['data']): d is typeof d & { ofPlacing: number } =>
  Number.isInteger(d.ofPlacing) && d.ofPlacing! >= 1;

/** A listing edit that changed the phone its buyers reach the seller on. */
const editsPhone = (e: RecordedEvent) =>
  e.type === 'ProductEdited' && (e.data as EventOf<'ProductEdited'>['data']).changes.phone !== undefined;

/**
 * A booking placed again after it was cancelled goes on in the same stream and row (one buyer,
 * one TV); the cancelled placing stays in the buyer's and the seller's history as a row
 * of its own, named after the booking and the position it was placed at (ADR 0063).
 */
export const earlierPlacingId = (bookingId: string, placedAt: number | string) => uuidFromName(`booking-placing:${bookingId}:${placedAt}`);

const BOOKING_COLUMNS = `product_id, product_name, product_image, product_thumbnail, price_poisha, buyer_id, buyer_name, buyer_email, phone, meeting_location,
  paid, cancelled, cancel_reason, transaction_id, placed_at, booked_at, seller_id, seller_email, refunded_poisha`;

/** The projection's name: its checkpoint's, which orders' policy waits for before it reads the bookings. */
export const ORDERS_PROJECTION = 'orders';

/**
 * Bookings for My Orders (the buyer's history, cancelled ones kept with their reason and what was
 * refunded), the seller's My Bookings, and the payment page. The seller of each product comes from its
 * ProductListed event, kept in this projection's own table with how the buyer reaches them: the
 * seller's name (renamed with their profile) and the listing's phone (changed with its edits).
 */
export const ordersProjection: Projection = {
  name: ORDERS_PROJECTION,
  schema: 'rm_orders',
  setup: `
    -- A cancelled placing keeps a row of its own when the booking is placed again (earlier_placing,
    -- ADR 0063); the new column changed the definition, so a shop from before rebuilds the table.
    -- product_thumbnail: the cover's thumbnail as booked, for lists (null: the listing had none).
    -- removed_reason: who took the listing off (ProductRemoved's reason), said with its bookings' cancellation.
    -- seller_name, phone: whom the buyer of a booking calls, and on what number (the listing's, as it is now).
    -- closed_accounts: a closed buyer's bookings keep nothing of how to reach them, one that lands after too (ADR 0075).
    create table closed_accounts (id text primary key);
    create table product_sellers (
      product_id text primary key, seller_id text not null, seller_email text not null, removed_reason text,
      seller_name text not null default '', phone text not null default ''
    );
    create index product_sellers_seller on product_sellers (seller_id);
    create table bookings (
      id text primary key, product_id text not null, product_name text not null, product_image text not null,
      product_thumbnail text, price_poisha bigint not null, buyer_id text not null, buyer_name text not null, buyer_email text not null,
      phone text not null, meeting_location text not null, paid boolean not null default false,
      cancelled boolean not null default false, cancel_reason text, transaction_id text, placed_at bigint not null,
      booked_at timestamptz not null, seller_id text, seller_email text not null default '',
      refunded_poisha bigint not null default 0, earlier_placing boolean not null default false
    );
    create index bookings_buyer on bookings (buyer_email, placed_at desc);
    create index bookings_seller on bookings (seller_id, placed_at desc);
    -- every booking of a product: the open ones the cancellation policy reads, and those a new phone is announced to.
    create index bookings_product on bookings (product_id);`,
  handlers: {
    ProductListed: async (e, ctx) => {
      const l = e.data as ProductListing;
      await ctx.db.query(
        `insert into product_sellers (product_id, seller_id, seller_email, seller_name, phone) values ($1, $2, $3, $4, $5)
         on conflict do nothing`,
        [l.productId, l.sellerId, l.sellerEmail, l.sellerName ?? '', l.phone ?? ''],
      );
    },
    ProductEdited: async (e, ctx) => {
      const d = e.data as EventOf<'ProductEdited'>['data'];
      if (d.changes.phone === undefined) return;
      const { rowCount } = await ctx.db.query('update product_sellers set phone = $2 where product_id = $1', [
        d.productId,
        d.changes.phone,
      ]);
      if (rowCount) await emitContactOf(ctx, 'b.product_id = $1', d.productId);
    },
    UserProfileUpdated: async (e, ctx) => {
      const d = e.data as EventOf<'UserProfileUpdated'>['data'];
      const { rowCount } = await ctx.db.query('update product_sellers set seller_name = $2 where seller_id = $1 and seller_name <> $2', [
        d.userId,
        d.name,
      ]);
      if (rowCount) await emitContactOf(ctx, 'b.seller_id = $1', d.userId);
    },
    // A closed account: nothing of how to reach its seller stays with their TVs' bookings, their
    // email neither (the bookings are still theirs: the seller's room hears of them until then).
    UserDeleted: async (e, ctx) => {
      const d = e.data as EventOf<'UserDeleted'>['data'];
      const { rowCount } = await ctx.db.query(
        `update product_sellers set seller_name = '', phone = '', seller_email = ''
         where seller_id = $1 and (seller_name <> '' or phone <> '' or seller_email <> '')`,
        [d.userId],
      );
      await ctx.db.query(`update bookings set seller_email = '' where seller_id = $1 and seller_email <> ''`, [d.userId]);
      if (rowCount) await emitContactOf(ctx, 'b.seller_id = $1', d.userId);
      // A closed buyer's account likewise: their phone, meeting place and email go from their
      // bookings (their name stays, so the seller knows whose booking it was), and a booking that
      // lands after it keeps none (closed_accounts). Not announced: the open ones are cancelled
      // for it, and that is announced.
      await ctx.db.query('insert into closed_accounts values ($1) on conflict do nothing', [d.userId]);
      await ctx.db.query(`update bookings set ${BUYER_GONE_SQL} where buyer_id = $1 and (${BUYER_CONTACT_SQL})`, [d.userId]);
    },
    BookingPlaced: async (e, ctx) => {
      const d = e.data as EventOf<'BookingPlaced'>['data'];
      // A booking cancelled earlier may be placed again in the same stream: the cancelled placing
      // is kept as a row of its own (with what was refunded of it), and the booking starts afresh.
      const { rows: before } = await ctx.db.query<{ placed_at: string }>('select placed_at from bookings where id = $1 and cancelled', [
        d.bookingId,
      ]);
      const earlier = before[0] ? earlierPlacingId(d.bookingId, before[0].placed_at) : null;
      if (earlier)
        await ctx.db.query(
          `insert into bookings (id, earlier_placing, ${BOOKING_COLUMNS}) select $2, true, ${BOOKING_COLUMNS} from bookings where id = $1`,
          [d.bookingId, earlier],
        );
      await ctx.db.query(
        `insert into bookings (id, product_id, product_name, product_image, price_poisha, buyer_id, buyer_name, buyer_email, phone,
           meeting_location, placed_at, booked_at, product_thumbnail, seller_id, seller_email)
         select $1, $2, $3, $4, $5, $6, $7, case when c.id is null then $8 else '' end, case when c.id is null then $9 else '' end,
           case when c.id is null then $10 else '' end, $11, $12, $13, s.seller_id, coalesce(s.seller_email, '')
         from (select 1) one left join product_sellers s on s.product_id = $2 left join closed_accounts c on c.id = $6
         on conflict (id) do update set cancelled = false, cancel_reason = null, paid = false, transaction_id = null, refunded_poisha = 0,
           phone = excluded.phone, meeting_location = excluded.meeting_location, price_poisha = excluded.price_poisha,
           product_name = excluded.product_name, product_image = excluded.product_image, product_thumbnail = excluded.product_thumbnail,
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
          d.productThumbnail ?? null,
        ],
      );
      if (earlier) await emitBooking(ctx, earlier);
      await emitBooking(ctx, d.bookingId);
    },
    BookingPaid: async (e, ctx) => {
      const d = e.data as EventOf<'BookingPaid'>['data'];
      await ctx.db.query('update bookings set paid = true, transaction_id = $2 where id = $1', [d.bookingId, d.paymentIntentId]);
      await emitBooking(ctx, d.bookingId);
    },
    ProductRemoved: async (e, ctx) => {
      const d = e.data as EventOf<'ProductRemoved'>['data'];
      await ctx.db.query('update product_sellers set removed_reason = $2 where product_id = $1', [d.productId, d.reason]);
    },
    BookingCancelled: async (e, ctx) => {
      const d = e.data as EventOf<'BookingCancelled'>['data'];
      const { rows } =
        d.reason === 'product-removed'
          ? await ctx.db.query<{ removed_reason: string | null }>('select removed_reason from product_sellers where product_id = $1', [
              d.productId,
            ])
          : { rows: [] };
      await ctx.db.query('update bookings set cancelled = true, cancel_reason = $2 where id = $1', [
        d.bookingId,
        cancelReasonText(d.reason, rows[0]?.removed_reason),
      ]);
      await emitBooking(ctx, d.bookingId);
    },
    // Money given back for a payment that bought nothing (the booking was cancelled meanwhile, or it
    // was for an earlier price). A fact about money: placed again, the cancelled placing keeps it,
    // and a refund that comes after the booking was placed again goes to the placing it paid for.
    PaymentRefunded: async (e, ctx) => {
      const d = e.data as EventOf<'PaymentRefunded'>['data'];
      const { rows } = !namesPlacing(d)
        ? { rows: [] }
        : await ctx.db.query<{ id: string }>(
            `select r.id from bookings b join bookings r on r.product_id = b.product_id and r.buyer_id = b.buyer_id
               where b.id = $1 and (r.id = b.id or r.earlier_placing) order by r.placed_at offset $2 limit 1`,
            [d.bookingId, d.ofPlacing - 1],
          );
      const id = rows[0]?.id ?? d.bookingId;
      await ctx.db.query('update bookings set refunded_poisha = refunded_poisha + $2 where id = $1', [id, d.amountPoisha]);
      await emitBooking(ctx, id);
    },
  },
  // A replay or a long catch-up: the same rows, written once per batch (ADR 0044).
  applyBatch: (events, ctx) => applyBatch(events, ctx),
};

/** A booking row as `to_json` shows it (bigints as numbers, times as ISO strings): the form a batch works in. */
type BookingRecord = Omit<BookingRow, 'price_poisha' | 'refunded_poisha' | 'booked_at' | 'seller_name' | 'seller_phone'> & {
  price_poisha: number;
  refunded_poisha: number;
  placed_at: number;
  booked_at: string;
};

/** How a closed buyer's account was reached, as it is left on their bookings (ADR 0075): one list for both forms. */
const BUYER_GONE = { phone: '', meeting_location: '', buyer_email: '' } as const;
const BUYER_CONTACT = Object.keys(BUYER_GONE) as (keyof typeof BUYER_GONE)[];
const BUYER_GONE_SQL = BUYER_CONTACT.map((c) => `${c} = ''`).join(', ');
const BUYER_CONTACT_SQL = BUYER_CONTACT.map((c) => `${c} <> ''`).join(' or ');

const BOOKING_EVENTS = ['BookingPlaced', 'BookingPaid', 'BookingCancelled', 'PaymentRefunded'];
/** What a batch of new listings alone (insertSellers) does not cover: an edit counts when it changed the phone. */
const FULL_BATCH_EVENTS = [...BOOKING_EVENTS, 'ProductRemoved', 'UserProfileUpdated', 'UserDeleted'];

/** A row of `product_sellers`. */
interface SellerRecord {
  product_id: string;
  seller_id: string;
  seller_email: string;
  removed_reason: string | null;
  seller_name: string;
  phone: string;
}
const sellerOf = (l: ProductListing): SellerRecord => ({
  product_id: l.productId,
  seller_id: l.sellerId,
  seller_email: l.sellerEmail,
  removed_reason: null,
  seller_name: l.sellerName ?? '',
  phone: l.phone ?? '',
});

/**
 * A batch without bookings (a run of new listings, the usual live batch): each listed product's
 * seller goes in as the handler's insert puts it (the first listing names the seller), with the
 * batch's commit and nothing read first.
 */
function insertSellers(events: RecordedEvent[], ctx: BatchContext): void {
  const first = new Map<string, SellerRecord>();
  for (const e of events) {
    if (e.type !== 'ProductListed') continue;
    const l = e.data as ProductListing;
    if (!first.has(l.productId)) first.set(l.productId, sellerOf(l));
  }
  if (first.size === 0) return;
  ctx.later(
    `insert into product_sellers (product_id, seller_id, seller_email, seller_name, phone)
     select product_id, seller_id, seller_email, seller_name, phone from json_populate_recordset(null::product_sellers, $1)
     on conflict do nothing`,
    [JSON.stringify([...first.values()])],
  );
}

/**
 * The handlers above for a batch of events at once (every batch the runner applies, live or a
 * replay; ADRs 0044, 0047): the bookings and product sellers the batch names are read once, each
 * event changes them in memory exactly as its handler's SQL does, and each changed row is written
 * once. When anyone listens, each changed booking is announced once, as of the last event that
 * changed it.
 */
async function applyBatch(events: RecordedEvent[], ctx: BatchContext): Promise<void> {
  if (!events.some((e) => FULL_BATCH_EVENTS.includes(e.type) || editsPhone(e))) return insertSellers(events, ctx);
  // Kept between live batches (ADR 0052): a booking paid or cancelled soon after it was placed
  // is there already.
  const sellers = new RowSet<SellerRecord>('product_sellers', ['product_id'], ctx.kept);
  const bookings = new RowSet<BookingRecord>('bookings', ['id'], ctx.kept);
  const closedAccounts = new RowSet<{ id: string }>('closed_accounts', ['id']);
  const named = (type: string, key: string, which: (e: RecordedEvent) => boolean = () => true) =>
    events.filter((e) => e.type === type && which(e)).map((e) => (e.data as Record<string, string>)[key]!);
  // Whose contact this batch changes: a seller renamed or closed (each of their products), a listing's phone.
  const closed = named('UserDeleted', 'userId');
  const renamed = [...named('UserProfileUpdated', 'userId'), ...closed];
  const rephoned = named('ProductEdited', 'productId', editsPhone);
  const loads: Parameters<typeof RowSet.loadTogether>[1] = [
    sellers.byKeys('t.product_id = any($1)', [
      ...named('ProductListed', 'productId'),
      ...named('BookingPlaced', 'productId'),
      ...named('ProductRemoved', 'productId'),
      ...named('BookingCancelled', 'productId'),
      ...named('BookingPaid', 'productId'),
      ...rephoned,
    ]),
    [sellers, 't.seller_id = any($1)', [renamed]],
    bookings.byKeys(
      't.id = any($1)',
      BOOKING_EVENTS.flatMap((type) => named(type, 'bookingId')),
    ),
    // A refund of an earlier placing: the stream's earlier placings, to find the one it paid for.
    [
      bookings,
      `t.earlier_placing and (t.product_id, t.buyer_id) in (select product_id, buyer_id from bookings where id = any($1))`,
      [named('PaymentRefunded', 'bookingId', (e) => namesPlacing(e.data as EventOf<'PaymentRefunded'>['data']))],
    ],
    // A closed account's email goes from its bookings, replayed too; a buyer's phone and meeting place as well.
    [bookings, 't.seller_id = any($1)', [closed]],
    [bookings, 't.buyer_id = any($1)', [closed]],
    closedAccounts.byKeys('t.id = any($1)', [...named('BookingPlaced', 'buyerId'), ...closed]),
  ];
  // Live, the bookings showing a new contact are announced again (a replay announces nothing).
  if (!ctx.replaying)
    loads.push(
      [bookings, `t.product_id = any($1) and ${showsContactSql('t')}`, [rephoned]],
      [bookings, `t.seller_id = any($1) and ${showsContactSql('t')}`, [renamed]],
    );
  await RowSet.loadTogether(ctx.db, loads);
  const touched = new LastChanges();
  // Bookings announced for a new contact alone, to their buyers (announce): one changed itself too is announced to all.
  const contactOnly = new Set<string>();
  const touch = (id: string, position: number) => {
    touched.touch(id, position);
    contactOnly.delete(id);
  };
  const touchContact = (of: (b: BookingRecord) => boolean, position: number) => {
    // Those that show it (open or paid), in the order they were placed, as the handlers announce them.
    const showing = [...bookings.values()].filter((b) => of(b) && showsContact(b)).sort((x, y) => x.placed_at - y.placed_at);
    for (const b of showing) {
      if (!touched.has(b.id) || contactOnly.has(b.id)) contactOnly.add(b.id);
      touched.touch(b.id, position);
    }
  };
  for (const e of events) {
    switch (e.type) {
      case 'ProductListed': {
        const l = e.data as ProductListing;
        // on conflict do nothing: the first listing of a product names its seller
        if (!sellers.get(l.productId)) sellers.insert(sellerOf(l));
        break;
      }
      case 'ProductEdited': {
        const d = e.data as EventOf<'ProductEdited'>['data'];
        if (d.changes.phone === undefined || !sellers.update(d.productId, { phone: d.changes.phone })) break;
        touchContact((b) => b.product_id === d.productId, e.position);
        break;
      }
      case 'UserProfileUpdated':
      case 'UserDeleted': {
        const d = e.data as { userId: string; name?: string };
        // Renamed, or closed (nothing of how to reach them stays), as the handlers' updates.
        const contact: Partial<SellerRecord> =
          e.type === 'UserDeleted' ? { seller_name: '', phone: '', seller_email: '' } : { seller_name: d.name ?? '' };
        let theirs = false;
        for (const s of sellers.values()) {
          if (s.seller_id !== d.userId || Object.entries(contact).every(([k, v]) => s[k as keyof SellerRecord] === v)) continue;
          theirs = sellers.update(s.product_id, contact);
        }
        if (e.type === 'UserDeleted') {
          if (!closedAccounts.get(d.userId)) closedAccounts.insert({ id: d.userId });
          for (const b of bookings.values()) {
            if (b.seller_id === d.userId && b.seller_email !== '') bookings.update(b.id, { seller_email: '' });
            if (b.buyer_id === d.userId && BUYER_CONTACT.some((c) => b[c] !== '')) bookings.update(b.id, BUYER_GONE);
          }
        }
        if (theirs) touchContact((b) => b.seller_id === d.userId, e.position);
        break;
      }
      case 'ProductRemoved': {
        const d = e.data as EventOf<'ProductRemoved'>['data'];
        if (sellers.get(d.productId)) sellers.update(d.productId, { removed_reason: d.reason });
        break;
      }
      case 'BookingPlaced': {
        const d = e.data as EventOf<'BookingPlaced'>['data'];
        const before = bookings.get(d.bookingId);
        if (before?.cancelled) {
          const earlier = earlierPlacingId(d.bookingId, before.placed_at);
          bookings.insert({ ...before, id: earlier, earlier_placing: true });
          touch(earlier, e.position);
        }
        // A buyer whose account closed before it landed: nothing of how to reach them is kept.
        const gone = closedAccounts.get(d.buyerId) !== undefined;
        const again = {
          cancelled: false,
          cancel_reason: null,
          paid: false,
          transaction_id: null,
          phone: gone ? '' : d.phone,
          meeting_location: gone ? '' : d.meetingLocation,
          price_poisha: d.pricePoisha,
          // Placed again after its seller edited it: the listing as it was booked this time.
          product_name: d.productName,
          product_image: d.productImage,
          product_thumbnail: d.productThumbnail ?? null,
          placed_at: e.position,
          booked_at: e.metadata.at,
          refunded_poisha: 0,
        };
        if (!bookings.update(d.bookingId, again)) {
          const seller = sellers.get(d.productId);
          bookings.insert({
            id: d.bookingId,
            product_id: d.productId,
            buyer_id: d.buyerId,
            buyer_name: d.buyerName,
            buyer_email: gone ? '' : d.buyerEmail,
            seller_id: seller?.seller_id ?? null,
            seller_email: seller?.seller_email ?? '',
            earlier_placing: false,
            ...again,
          });
        }
        touch(d.bookingId, e.position);
        break;
      }
      case 'BookingPaid': {
        const d = e.data as EventOf<'BookingPaid'>['data'];
        if (bookings.update(d.bookingId, { paid: true, transaction_id: d.paymentIntentId })) touch(d.bookingId, e.position);
        break;
      }
      case 'BookingCancelled': {
        const d = e.data as EventOf<'BookingCancelled'>['data'];
        const removedAs = d.reason === 'product-removed' ? sellers.get(d.productId)?.removed_reason : null;
        if (bookings.update(d.bookingId, { cancelled: true, cancel_reason: cancelReasonText(d.reason, removedAs) }))
          touch(d.bookingId, e.position);
        break;
      }
      case 'PaymentRefunded': {
        const d = e.data as EventOf<'PaymentRefunded'>['data'];
        const own = bookings.get(d.bookingId);
        // The placing it paid for, as the handler finds it: this stream's rows in the order placed.
        const placings = own
          ? [...bookings.values()]
              .filter((b) => b.product_id === own.product_id && b.buyer_id === own.buyer_id && (b.id === own.id || b.earlier_placing))
              .sort((x, y) => x.placed_at - y.placed_at)
          : [];
        const before = (namesPlacing(d) ? placings[d.ofPlacing - 1] : undefined) ?? own;
        if (before && bookings.update(before.id, { refunded_poisha: Number(before.refunded_poisha) + d.amountPoisha }))
          touch(before.id, e.position);
        break;
      }
    }
  }
  sellers.save(ctx);
  bookings.save(ctx);
  closedAccounts.save(ctx);
  if (ctx.replaying) return;
  // The seller of each booking announced, for its contact: a refund names no product, so its
  // seller may not be read yet.
  const unread = [...touched.keys()].map((id) => bookings.get(id)!.product_id).filter((p) => !sellers.get(p));
  await RowSet.loadTogether(ctx.db, [sellers.byKeys('t.product_id = any($1)', unread)]);
  for (const [id, position] of touched) {
    const r = bookings.get(id)!;
    const seller = sellers.get(r.product_id);
    const row = toBooking({
      ...r,
      price_poisha: String(r.price_poisha),
      refunded_poisha: String(r.refunded_poisha),
      booked_at: new Date(r.booked_at),
      seller_name: seller?.seller_name ?? null,
      seller_phone: seller?.phone ?? null,
    });
    announce((c, to) => ctx.emit(c, to, position), r, row, contactOnly.has(id));
  }
}
