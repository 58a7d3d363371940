import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms, type Booking } from '@tv-shop/contracts';
import type { Projection } from '@tv-shop/platform';
import { createTestDatabase, projectionSpec, type TestDatabase } from '@tv-shop/platform/testing';
import { earlierPlacingId, ordersProjection } from './orders.projection';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('orders_rm');
});
afterAll(async () => {
  await db.drop();
});

const listed = (productId = 'p1', sellerId = 's1') => ({
  type: 'ProductListed',
  data: { productId, sellerId, sellerEmail: `${sellerId}@x.test`, sellerName: 'Karim Traders', phone: '01711000000', name: 'Sony 42"' },
});
const placed = (over: Record<string, unknown> = {}, at?: string) => ({
  type: 'BookingPlaced',
  data: {
    bookingId: 'bk1',
    productId: 'p1',
    productName: 'Sony 42"',
    productImage: '/api/images/i1',
    pricePoisha: 1_500_050,
    buyerId: 'b1',
    buyerName: 'Nusrat',
    buyerEmail: 'nusrat@x.test',
    phone: '01800000000',
    meetingLocation: 'Dhanmondi',
    ...over,
  },
  at,
});
const paid = {
  type: 'BookingPaid',
  data: { bookingId: 'bk1', productId: 'p1', buyerId: 'b1', paymentIntentId: 'pi_1', amountPoisha: 1_500_050, provider: 'sandbox' },
};
const cancelled = (reason: string) => ({ type: 'BookingCancelled', data: { bookingId: 'bk1', productId: 'p1', reason } });
const removed = (reason: string) => ({ type: 'ProductRemoved', data: { productId: 'p1', reason } });

/** The booking as the API and the pushes show it. */
const booking = (over: Partial<Booking> = {}): Booking => ({
  _id: 'bk1',
  porduct_name: 'Sony 42"',
  price: 15000.5,
  username: 'Nusrat',
  email: 'nusrat@x.test',
  phone_number: '01800000000',
  meeting_location: 'Dhanmondi',
  productImage: '/api/images/i1',
  // No thumbnail in the booking: the photo stands for it.
  productThumbnail: '/api/images/i1',
  product_id: 'p1',
  paid: false,
  status: 'open',
  booked_at: '2025-01-01T00:00:02.000Z',
  seller_email: 's1@x.test',
  seller_name: 'Karim Traders',
  seller_phone: '01711000000',
  // A cancelled booking has nobody to meet: it shows no contact.
  ...(over.status === 'cancelled' ? { seller_name: undefined, seller_phone: undefined } : {}),
  ...over,
});
const toBuyerSellerAdmins = [rooms.user('b1'), rooms.admins, rooms.user('s1')];
/** A new contact alone is news to the buyer (and the admins), not to the seller it is of. */
const toBuyerAdmins = [rooms.user('b1'), rooms.admins];
const upsert = (position: number, over: Partial<Booking> = {}, to = toBuyerSellerAdmins) => ({
  push: { entity: 'booking' as const, op: 'upsert' as const, id: 'bk1', row: booking(over), position },
  rooms: to,
});
/** A paid booking heard by its seller too: the buyer and the admins get the payment id, the seller the row without it. */
const paidUpserts = (position: number, over: Partial<Booking>) => {
  const { transationId: _paid, ...sellers } = booking(over);
  return [
    upsert(position, over, toBuyerAdmins),
    { push: { entity: 'booking' as const, op: 'upsert' as const, id: 'bk1', row: sellers, position }, rooms: [rooms.user('s1')] },
  ];
};
const STATE = 'select id, paid, cancelled, cancel_reason, transaction_id, seller_id, seller_email, placed_at::int from bookings';
/** A row as STATE reads it: bk1 of seller s1, open and unpaid, placed at 2, but for `over`. */
const stateRow = (over: Record<string, unknown> = {}) => ({
  id: 'bk1',
  paid: false,
  cancelled: false,
  cancel_reason: null,
  transaction_id: null,
  seller_id: 's1',
  seller_email: 's1@x.test',
  placed_at: 2,
  ...over,
});

// The batch form the runner applies, and the handlers a verify replays with (`bulk: false`): the same rows, the same pushes.
const forms: [string, Projection][] = [
  ['the batch form', ordersProjection],
  ['the handlers', { ...ordersProjection, applyBatch: undefined }],
];
describe.each(forms)('orders projection (rm_orders), %s', (_, projection) => {
  const given = projectionSpec(projection, () => db.pool);
  const sellerRow = { product_id: 'p1', seller_id: 's1', seller_email: 's1@x.test', removed_reason: null };
  it("ProductListed: the product's seller and how to reach them, kept for the bookings; nothing pushed", async () => {
    await given()
      .when(listed('p1', 's1'), listed('p1', 's1'))
      .then({
        rows: { 'select * from product_sellers': [{ ...sellerRow, seller_name: 'Karim Traders', phone: '01711000000' }] },
        pushes: [],
      });
  });

  it("ProductEdited with a new phone: the number its bookings' buyers call, pushed with each of them; any other edit changes nothing here", async () => {
    const edited = (changes: Record<string, unknown>) => ({ type: 'ProductEdited', data: { productId: 'p1', changes } });
    await given(listed(), placed())
      .when(edited({ phone: '01999000000' }), edited({ details: 'Like new' }))
      .then({
        rows: { 'select phone from product_sellers': [{ phone: '01999000000' }] },
        pushes: [upsert(3, { seller_phone: '01999000000' }, toBuyerAdmins)],
      });
    // A cancelled booking shows no contact: nothing to tell its buyer.
    await given(listed(), placed(), cancelled('product-sold'))
      .when(edited({ phone: '01999000000' }))
      .then({ pushes: [] });
    // A listing nobody booked: nothing to tell.
    await given(listed())
      .when(edited({ phone: '01999000000' }))
      .then({ pushes: [] });
  });

  it("UserProfileUpdated of a seller: their new name with their TVs' bookings, pushed; a buyer's, or the same name, changes nothing here", async () => {
    const renamed = (userId: string, name: string) => ({ type: 'UserProfileUpdated', data: { userId, name, photoURL: '' } });
    await given(listed(), listed('p2'), placed())
      .when(renamed('s1', 'Karim Electronics'), renamed('b1', 'Nusrat J'), renamed('s1', 'Karim Electronics'))
      .then({
        rows: {
          'select product_id, seller_name from product_sellers order by product_id': [
            { product_id: 'p1', seller_name: 'Karim Electronics' },
            { product_id: 'p2', seller_name: 'Karim Electronics' },
          ],
        },
        pushes: [upsert(4, { seller_name: 'Karim Electronics', booked_at: '2025-01-01T00:00:03.000Z' }, toBuyerAdmins)],
      });
  });

  it('UserDeleted of a seller: nothing of how to reach them stays with their bookings (their email neither), pushed once', async () => {
    const deleted = { type: 'UserDeleted', data: { userId: 's1', email: 's1@x.test', role: 'Seller' } };
    await given(listed(), placed(), paid)
      .when(deleted, deleted)
      .then({
        rows: {
          'select seller_name, phone, seller_email from product_sellers': [{ seller_name: '', phone: '', seller_email: '' }],
          'select seller_email from bookings': [{ seller_email: '' }],
        },
        pushes: [
          upsert(
            4,
            { paid: true, status: 'paid', transationId: 'pi_1', seller_email: '', seller_name: undefined, seller_phone: undefined },
            toBuyerAdmins,
          ),
        ],
      });
  });

  it("UserDeleted of a buyer: their phone, meeting place and email go from their bookings (an earlier placing's too), their name stays; not pushed", async () => {
    const deleted = { type: 'UserDeleted', data: { userId: 'b1', email: 'nusrat@x.test', role: 'Buyer' } };
    const BUYER = 'select buyer_name, buyer_email, phone, meeting_location, count(*)::int as n from bookings group by 1, 2, 3, 4';
    await given(listed(), placed(), cancelled('buyer-cancelled'), placed(), paid)
      .when(deleted, deleted)
      .then({
        rows: { [BUYER]: [{ buyer_name: 'Nusrat', buyer_email: '', phone: '', meeting_location: '', n: 2 }] },
        pushes: [],
      });
    // Another buyer's booking keeps theirs.
    await given(listed(), placed())
      .when({ type: 'UserDeleted', data: { userId: 'b2', email: 'b2@x.test', role: 'Buyer' } })
      .then({
        rows: {
          [BUYER]: [{ buyer_name: 'Nusrat', buyer_email: 'nusrat@x.test', phone: '01800000000', meeting_location: 'Dhanmondi', n: 1 }],
        },
      });
  });

  it("BookingPlaced after the buyer's account closed (a request let through a moment before): nothing of how to reach them is kept or pushed, whatever cancels it", async () => {
    const deleted = { type: 'UserDeleted', data: { userId: 'b1', email: 'nusrat@x.test', role: 'Buyer' } };
    const gone = { email: '', phone_number: '', meeting_location: '', booked_at: '2025-01-01T00:00:03.000Z' };
    await given(listed(), deleted)
      .when(placed(), cancelled('product-removed'))
      .then({
        rows: { 'select buyer_email, phone, meeting_location from bookings': [{ buyer_email: '', phone: '', meeting_location: '' }] },
        pushes: [upsert(3, gone), upsert(4, { ...gone, status: 'cancelled', cancel_reason: 'listing removed' })],
      });
  });

  it('a cancelled booking shows no contact; an open or paid one does', async () => {
    await given(listed(), placed())
      .when(cancelled('buyer-cancelled'))
      .then({
        pushes: [
          upsert(3, { status: 'cancelled', cancel_reason: 'cancelled by the buyer', seller_name: undefined, seller_phone: undefined }),
        ],
      });
  });

  it("BookingPlaced: an open booking with the seller of the TV, pushed to the buyer, the admins and the seller's room", async () => {
    await given(listed())
      .when(placed())
      .then({
        rows: {
          [STATE]: [stateRow()],
          'select price_poisha::int, buyer_id, booked_at from bookings': [
            { price_poisha: 1_500_050, buyer_id: 'b1', booked_at: new Date('2025-01-01T00:00:02Z') },
          ],
        },
        pushes: [upsert(2)],
      });
  });

  it("BookingPlaced with the cover's thumbnail: kept with the booking and answered beside the photo, for lists", async () => {
    await given(listed())
      .when(placed({ productThumbnail: '/api/images/t1' }))
      .then({
        rows: {
          'select product_image, product_thumbnail from bookings': [
            { product_image: '/api/images/i1', product_thumbnail: '/api/images/t1' },
          ],
        },
        pushes: [upsert(2, { productThumbnail: '/api/images/t1' })],
      });
  });

  it('BookingPlaced for a TV whose listing this projection never saw: no seller, so only the buyer and the admins hear of it', async () => {
    await given()
      .when(placed())
      .then({
        rows: {
          [STATE]: [
            {
              id: 'bk1',
              paid: false,
              cancelled: false,
              cancel_reason: null,
              transaction_id: null,
              seller_id: null,
              seller_email: '',
              placed_at: 1,
            },
          ],
        },
        pushes: [
          upsert(1, { seller_email: '', seller_name: undefined, seller_phone: undefined, booked_at: '2025-01-01T00:00:01.000Z' }, [
            rooms.user('b1'),
            rooms.admins,
          ]),
        ],
      });
  });

  it('BookingPaid: paid with its transaction id, which its seller does not hear', async () => {
    await given(listed(), placed())
      .when(paid)
      .then({
        rows: {
          [STATE]: [stateRow({ paid: true, transaction_id: 'pi_1' })],
        },
        pushes: paidUpserts(3, { paid: true, status: 'paid', transationId: 'pi_1' }),
      });
  });

  it("BookingCancelled: the row stays in the buyer's history, cancelled with a reason in words", async () => {
    await given(listed(), placed())
      .when(cancelled('product-sold'))
      .then({
        rows: {
          [STATE]: [stateRow({ cancelled: true, cancel_reason: 'sold to another buyer' })],
        },
        pushes: [upsert(3, { status: 'cancelled', cancel_reason: 'sold to another buyer' })],
      });
  });

  it('BookingCancelled: each reason in words (an unknown one as it is)', async () => {
    await given(listed(), placed())
      .when(cancelled('product-removed'))
      .then({ rows: { 'select cancel_reason from bookings': [{ cancel_reason: 'listing removed' }] } });
    // A removal this read model saw says who took the listing off, in the listing page's words.
    await given(listed(), placed(), removed('withdrawn'))
      .when(cancelled('product-removed'))
      .then({ rows: { 'select cancel_reason from bookings': [{ cancel_reason: 'listing removed: its seller took it off TV Shop' }] } });
    await given(listed(), placed())
      .when(removed('reported'), cancelled('product-removed'))
      .then({
        rows: { 'select cancel_reason from bookings': [{ cancel_reason: 'listing removed: TV Shop removed it after it was reported' }] },
      });
    await given(listed(), placed())
      .when(cancelled('buyer-cancelled'))
      .then({ rows: { 'select cancel_reason from bookings': [{ cancel_reason: 'cancelled by the buyer' }] } });
    await given(listed(), placed())
      .when(cancelled('buyer-deleted'))
      .then({ rows: { 'select cancel_reason from bookings': [{ cancel_reason: 'account deleted' }] } });
    await given(listed(), placed())
      .when(cancelled('something-new'))
      .then({ rows: { 'select cancel_reason from bookings': [{ cancel_reason: 'something-new' }] } });
  });

  it('BookingPlaced again after a cancellation: the cancelled placing stays as a row of its own, and the booking starts afresh', async () => {
    const earlier = earlierPlacingId('bk1', 2);
    await given(listed(), placed(), cancelled('product-sold'))
      .when(placed({ phone: '01900000000', meetingLocation: 'Gulshan', pricePoisha: 1_400_000 }))
      .then({
        rows: {
          [`${STATE} order by placed_at`]: [
            stateRow({ id: earlier, cancelled: true, cancel_reason: 'sold to another buyer' }),
            stateRow({ placed_at: 4 }),
          ],
          'select meeting_location from bookings order by placed_at': [{ meeting_location: 'Dhanmondi' }, { meeting_location: 'Gulshan' }],
        },
        pushes: [
          {
            ...upsert(4, { status: 'cancelled', cancel_reason: 'sold to another buyer' }),
            push: {
              ...upsert(4).push,
              id: earlier,
              row: booking({ _id: earlier, status: 'cancelled', cancel_reason: 'sold to another buyer', earlier_placing: true }),
            },
          },
          upsert(4, { phone_number: '01900000000', meeting_location: 'Gulshan', price: 14000, booked_at: '2025-01-01T00:00:04.000Z' }),
        ],
      });
  });

  it('a payment intent changes nothing; a refund of one is added up on the booking, pushed, and kept by that placing when it is placed again', async () => {
    const intent = {
      type: 'PaymentIntentCreated',
      data: { bookingId: 'bk1', paymentIntentId: 'pi_1', provider: 'sandbox', amountPoisha: 1_500_050, currency: 'bdt' },
    };
    const refunded = {
      type: 'PaymentRefunded',
      data: { bookingId: 'bk1', paymentIntentId: 'pi_1', amountPoisha: 1_500_050, reason: 'product-unavailable' },
    };
    await given(listed(), placed())
      .when(intent)
      .then({
        rows: { 'select paid, cancelled, refunded_poisha::int from bookings': [{ paid: false, cancelled: false, refunded_poisha: 0 }] },
        pushes: [],
      });
    await given(listed(), placed(), intent, cancelled('buyer-cancelled'))
      .when(refunded)
      .then({
        rows: {
          'select cancel_reason, refunded_poisha::int from bookings': [
            { cancel_reason: 'cancelled by the buyer', refunded_poisha: 1_500_050 },
          ],
        },
        pushes: [upsert(5, { status: 'cancelled', cancel_reason: 'cancelled by the buyer', refunded: 15000.5 })],
      });
    await given(listed(), placed(), intent, cancelled('buyer-cancelled'), refunded)
      .when(placed())
      .then({
        rows: {
          'select cancelled, refunded_poisha::int from bookings order by placed_at': [
            { cancelled: true, refunded_poisha: 1_500_050 },
            { cancelled: false, refunded_poisha: 0 },
          ],
        },
      });
  });

  it('a refund that comes after the booking was placed again goes to the placing it paid for, and that row is pushed; one naming no placing (an event from before) to the booking', async () => {
    const earlier = earlierPlacingId('bk1', 2);
    const again = placed({ pricePoisha: 1_400_000 });
    const refundOf = (ofPlacing?: number) => ({
      type: 'PaymentRefunded',
      data: { bookingId: 'bk1', paymentIntentId: 'pi_1', amountPoisha: 1_500_050, reason: 'product-unavailable', ofPlacing },
    });
    const refundedRows = 'select id, cancelled, refunded_poisha::int from bookings order by placed_at';
    /** The two placings' rows, the earlier (cancelled) first, with what each was refunded. */
    const refundedAs = (onEarlier: number, onOwn: number) => [
      { id: earlier, cancelled: true, refunded_poisha: onEarlier },
      { id: 'bk1', cancelled: false, refunded_poisha: onOwn },
    ];
    const history = [listed(), placed(), cancelled('listing-edited'), again];
    await given(...history)
      .when(refundOf(1))
      .then({
        rows: { [refundedRows]: refundedAs(1_500_050, 0) },
        pushes: [
          {
            ...upsert(5),
            push: {
              ...upsert(5).push,
              id: earlier,
              row: booking({
                _id: earlier,
                status: 'cancelled',
                cancel_reason: 'the seller changed the listing; book it again if you still want it',
                earlier_placing: true,
                refunded: 15000.5,
              }),
            },
          },
        ],
      });
    // Its own placing named, or none (an event from before): the booking's row, as before.
    await given(...history)
      .when(refundOf(2))
      .then({ rows: { [refundedRows]: refundedAs(0, 1_500_050) } });
    await given(...history)
      .when(refundOf())
      .then({ rows: { [refundedRows]: refundedAs(0, 1_500_050) } });
    // Placed again within the same batch as the refund: the batch form finds the placing it just made.
    if (!projection.applyBatch) return;
    const together = await given(...history.slice(0, -1))
      .whenTogether(again, refundOf(1))
      .outcome();
    expect(await together.rows(refundedRows)).toEqual(refundedAs(1_500_050, 0));
  });
});

describe('orders projection (rm_orders), a new contact in one batch with other changes', () => {
  const given = projectionSpec(ordersProjection, () => db.pool);
  const renamed = { type: 'UserProfileUpdated', data: { userId: 's1', name: 'Karim Electronics' } };

  it('placed and the seller renamed in one batch: announced once, to the seller too, with the new name', async () => {
    const { pushes } = await given(listed()).whenTogether(placed(), renamed).outcome();
    expect(pushes).toEqual([upsert(3, { seller_name: 'Karim Electronics', booked_at: '2025-01-01T00:00:02.000Z' })]);
  });

  it('renamed, then paid in the same batch: the seller hears of the payment', async () => {
    const { pushes } = await given(listed(), placed()).whenTogether(renamed, paid).outcome();
    expect(pushes).toEqual(paidUpserts(4, { seller_name: 'Karim Electronics', paid: true, status: 'paid', transationId: 'pi_1' }));
  });

  it("renamed with two bookings of the seller's TVs, one cancelled: only the open one is announced, to its buyer", async () => {
    const second = placed({ bookingId: 'bk2', productId: 'p2', buyerId: 'b2' });
    const { pushes } = await given(listed(), listed('p2'), placed(), second, cancelled('product-sold')).whenTogether(renamed).outcome();
    expect(pushes.map((p) => [p.push.id, p.rooms])).toEqual([['bk2', [rooms.user('b2'), rooms.admins]]]);
    expect(pushes[0]!.push).toMatchObject({ row: { seller_name: 'Karim Electronics', seller_phone: '01711000000' } });
  });
});
