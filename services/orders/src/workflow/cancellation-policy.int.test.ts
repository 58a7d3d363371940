import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams, type EventOf, type Role } from '@tv-shop/contracts';
import { policyCheckpoint, PostgresEventStore, setCheckpoint, type EventMetadata } from '@tv-shop/platform';
import { createTestLog, type TestDatabase, type TestLog } from '@tv-shop/platform/testing';
import type { ProductFacts } from '../booking/decide';
import { listing } from '../booking/fixtures';
import { bookingIdFor } from '../booking/ids';
import { loadProductFacts } from '../booking/product-facts';
import { bookingsIn, type Bookings } from '../booking/stream';
import { ordersProjection } from '../read-model/orders.projection';
import { startCancellationPolicy } from './cancellation-policy';

type CancelReason = EventOf<'BookingCancelled'>['data']['reason'];
/** An event of the log, as much of it as a reaction to it carries on: its id and correlation. */
type Cause = { eventId: string; metadata: Pick<EventMetadata, 'correlationId'> };

/**
 * Orders' cancellation policy, given the log (catalog's and identity's events as they publish
 * them, bookings decided as orders decides them) and the orders read model it reads: when a
 * booking is placed, a product is sold or removed, a user is deleted, then the events the policy
 * leaves on booking streams.
 */
describe('policy: bookings that can no longer be paid are cancelled', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let log: TestLog;
  let bookings: Bookings;
  let policy: Awaited<ReturnType<typeof startCancellationPolicy>>;
  const startPolicy = async () => {
    policy = await startCancellationPolicy({ store, pool: db.pool, bookings });
  };

  /** Appends one event to a stream, as its owner would; answers it as a cause. */
  const given = async (streamId: string, type: string, data: unknown, actorId: string, actorRole: Role | 'System'): Promise<Cause> => {
    const event = {
      eventId: randomUUID(),
      type,
      data,
      metadata: { actorId, actorRole, correlationId: randomUUID(), causationId: null, at: new Date().toISOString() },
    };
    await store.append(streamId, [event], 'any');
    return event;
  };
  const list = (productId: string, sellerId = 'seller-1') =>
    given(streams.product(productId), 'ProductListed', listing(productId, sellerId), sellerId, 'Seller');
  /** Sold to a booking (catalog's RecordSale, the first half of paying), or by the seller elsewhere. */
  const sell = (productId: string, to?: { bookingId: string; buyerId: string }) =>
    to
      ? given(streams.product(productId), 'ProductMarkedSold', { productId, bookingId: to.bookingId }, to.buyerId, 'Buyer')
      : given(streams.product(productId), 'ProductMarkedSold', { productId }, 'seller-1', 'Seller');
  const makeAvailable = (productId: string) =>
    given(streams.product(productId), 'ProductMarkedAvailable', { productId }, 'seller-1', 'Seller');
  const edit = (productId: string, changes: Record<string, unknown>) =>
    given(streams.product(productId), 'ProductEdited', { productId, changes }, 'seller-1', 'Seller');
  /** Listed with three photos, the first of them its cover. */
  const photos = ['/api/images/a', '/api/images/b', '/api/images/c'];
  const listWithPhotos = (productId: string) =>
    given(
      streams.product(productId),
      'ProductListed',
      { ...listing(productId, 'seller-1'), imageUrl: photos[0], imageUrls: photos },
      'seller-1',
      'Seller',
    );
  const reorder = (productId: string) => edit(productId, { imageUrl: photos[2], imageUrls: [photos[2], photos[0], photos[1]] });
  const remove = (productId: string) =>
    given(streams.product(productId), 'ProductRemoved', { productId, reason: 'admin' }, 'admin', 'Admin');
  const deleteUser = (userId: string, role: Role) =>
    given(streams.user(userId), 'UserDeleted', { userId, email: `${userId}@example.com`, role }, 'admin', 'Admin');

  /**
   * A buyer books a product, decided as orders' PlaceBooking decides it: on the product's facts
   * as read now, or on `facts` read earlier (a placing that raced a sale or a removal). `counted:
   * 'edits'`: placed before terms were counted (ADR 0073), as bookings from then were.
   */
  const place = async (productId: string, buyerId: string, facts?: ProductFacts, counted: 'terms' | 'edits' = 'terms') => {
    const product = facts ?? (await loadProductFacts(store, productId));
    const bookingId = bookingIdFor(productId, buyerId);
    const booking = {
      bookingId,
      productId,
      productName: product.name,
      productImage: product.image,
      pricePoisha: product.pricePoisha,
      buyerId,
      buyerName: 'Nila',
      buyerEmail: `${buyerId}@example.com`,
      phone: '018',
      meetingLocation: 'Mirpur',
      listingEdits: product.edits,
      ...(counted === 'terms' ? { listingTerms: product.terms } : {}),
    };
    const out = await bookings.run(
      bookingId,
      { type: 'PlaceBooking', data: { booking, product } },
      { commandId: randomUUID(), actor: { id: buyerId, role: 'Buyer' }, correlationId: randomUUID() },
    );
    expect(out.events.map((e) => e.type)).toEqual(['BookingPlaced']);
    return { bookingId, placing: out.events[0]! };
  };
  /** A booking paid through the sandbox, as the payment workflow leaves it (the sale recorded first). */
  const pay = async (productId: string, buyerId: string, bookingId: string) => {
    const meta = () => ({ commandId: randomUUID(), actor: { id: buyerId, role: 'Buyer' }, correlationId: randomUUID() });
    const intent = { paymentIntentId: `pi_${bookingId}`, provider: 'sandbox', amountPoisha: 100_000, currency: 'bdt' };
    const product = await loadProductFacts(store, productId);
    await bookings.run(bookingId, { type: 'RecordPaymentIntent', data: { buyerId, ...intent, product } }, meta());
    await sell(productId, { bookingId, buyerId });
    const confirmed = { id: intent.paymentIntentId, status: 'succeeded', amount: 100_000, currency: 'bdt', bookingId, provider: 'sandbox' };
    await bookings.run(bookingId, { type: 'PayBooking', data: { buyerId, intent: confirmed, saleRecorded: true } }, meta());
  };

  const typesOf = async (bookingId: string) => (await store.readStream(streams.booking(bookingId))).map((e) => e.type);
  const cancellationsOf = async (bookingId: string) =>
    (await store.readStream(streams.booking(bookingId))).filter((e) => e.type === 'BookingCancelled');
  /** The booking's cancellation: for that reason, by the system, caused by (and correlated with) `cause`. */
  const expectCancelledBy = (
    cancellation: { type: string; data: unknown; metadata: EventMetadata } | undefined,
    booking: { bookingId: string; productId: string },
    reason: CancelReason,
    cause: Cause,
  ) => {
    expect(cancellation).toMatchObject({ type: 'BookingCancelled', data: { ...booking, reason } });
    expect(cancellation!.metadata).toMatchObject({
      actorId: 'system',
      actorRole: 'System',
      causationId: cause.eventId,
      correlationId: cause.metadata.correlationId,
    });
  };

  beforeAll(async () => {
    log = await createTestLog('orders_policy', ordersProjection);
    ({ db, store } = log);
    bookings = bookingsIn(store, () => new Date());
    await startPolicy();
  });
  afterAll(async () => {
    await policy.stop();
    await log.stop();
  });

  describe('BookingPlaced', () => {
    it('given a TV sold to another booking, when a booking lands that was decided before the sale, then that placing is cancelled at once (product-sold); each placing again too, and the buyer it was sold to keeps theirs', async () => {
      await list('bp-sold');
      const winner = await place('bp-sold', 'bp-winner');
      const readBeforeTheSale = await loadProductFacts(store, 'bp-sold');
      await sell('bp-sold', { bookingId: winner.bookingId, buyerId: 'bp-winner' });

      const first = await place('bp-sold', 'bp-late', readBeforeTheSale);
      await policy.caughtUp();
      const booking = { bookingId: first.bookingId, productId: 'bp-sold' };
      expect(await typesOf(first.bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
      expectCancelledBy((await cancellationsOf(first.bookingId))[0], booking, 'product-sold', first.placing);

      // The same race again: the second placing is cancelled by its own reaction, not the first's.
      const second = await place('bp-sold', 'bp-late', readBeforeTheSale);
      await policy.caughtUp();
      expect(await typesOf(first.bookingId)).toEqual(['BookingPlaced', 'BookingCancelled', 'BookingPlaced', 'BookingCancelled']);
      expectCancelledBy((await cancellationsOf(first.bookingId))[1], booking, 'product-sold', second.placing);

      expect(await typesOf(winner.bookingId)).toEqual(['BookingPlaced']);
    });

    it('given a removed TV, when a booking lands that was decided before the removal, then it is cancelled at once (product-removed)', async () => {
      await list('bp-removed');
      const readBeforeTheRemoval = await loadProductFacts(store, 'bp-removed');
      await remove('bp-removed');

      const { bookingId, placing } = await place('bp-removed', 'bp-buyer', readBeforeTheRemoval);
      await policy.caughtUp();
      expect(await typesOf(bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
      expectCancelledBy((await cancellationsOf(bookingId))[0], { bookingId, productId: 'bp-removed' }, 'product-removed', placing);
    });

    it('given a TV its seller edited, when a booking lands that was decided on the listing before the edit, then it is cancelled at once (listing-edited)', async () => {
      await list('bp-edited');
      const readBeforeTheEdit = await loadProductFacts(store, 'bp-edited');
      await given(
        streams.product('bp-edited'),
        'ProductEdited',
        { productId: 'bp-edited', changes: { resalePricePoisha: 90_000 } },
        'seller-1',
        'Seller',
      );

      const { bookingId, placing } = await place('bp-edited', 'bp-buyer', readBeforeTheEdit);
      await policy.caughtUp();
      expect(await typesOf(bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
      expectCancelledBy((await cancellationsOf(bookingId))[0], { bookingId, productId: 'bp-edited' }, 'listing-edited', placing);
      // Booked again on the listing as it is now: it stays.
      await place('bp-edited', 'bp-buyer');
      await policy.caughtUp();
      expect(await typesOf(bookingId)).toEqual(['BookingPlaced', 'BookingCancelled', 'BookingPlaced']);
    });

    it('given a TV whose seller only put its photos in another order, when a booking lands that was decided on the listing before, then it stays; one from before terms were counted is cancelled (ADR 0073)', async () => {
      await listWithPhotos('bp-reordered');
      const readBeforeTheReorder = await loadProductFacts(store, 'bp-reordered');
      await reorder('bp-reordered');

      const { bookingId } = await place('bp-reordered', 'bp-buyer', readBeforeTheReorder);
      const legacy = await place('bp-reordered', 'bp-old-client', readBeforeTheReorder, 'edits');
      await policy.caughtUp();
      expect(await typesOf(bookingId)).toEqual(['BookingPlaced']);
      expect(await typesOf(legacy.bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
      expectCancelledBy(
        (await cancellationsOf(legacy.bookingId))[0],
        { bookingId: legacy.bookingId, productId: 'bp-reordered' },
        'listing-edited',
        legacy.placing,
      );
    });

    it('given a deleted buyer, when a booking of theirs lands after the deletion (let through a moment before the gateway heard of it), then it is cancelled at once (buyer-deleted)', async () => {
      await list('bp-late');
      await deleteUser('bp-closed-buyer', 'Buyer');
      const { bookingId, placing } = await place('bp-late', 'bp-closed-buyer');
      await policy.caughtUp();
      expect(await typesOf(bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
      expectCancelledBy((await cancellationsOf(bookingId))[0], { bookingId, productId: 'bp-late' }, 'buyer-deleted', placing);
    });

    it('given a TV for sale, when it is booked, then nothing is cancelled', async () => {
      await list('bp-open');
      const { bookingId } = await place('bp-open', 'bp-buyer');
      await policy.caughtUp();
      expect(await typesOf(bookingId)).toEqual(['BookingPlaced']);
    });
  });

  describe('ProductEdited', () => {
    it('given unpaid bookings of a TV, when its seller changes its price or puts another photo in place of one, then they are cancelled (listing-edited, caused by the edit)', async () => {
      for (const [productId, changes] of [
        ['pe-price', { resalePricePoisha: 90_000 }],
        ['pe-photo', { imageUrls: [photos[0], photos[1], '/api/images/d'] }],
      ] as const) {
        await listWithPhotos(productId);
        const { bookingId } = await place(productId, 'pe-buyer');
        const edited = await edit(productId, changes);
        await policy.caughtUp();
        expect(await typesOf(bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
        expectCancelledBy((await cancellationsOf(bookingId))[0], { bookingId, productId }, 'listing-edited', edited);
      }
    });

    it('given a booking placed, then the TV edited or removed, when the policy reacts to both late, then each booking is cancelled by the change that came after it, as when the policy runs at once', async () => {
      await policy.stop();
      await listWithPhotos('pe-late-edit');
      const edited = await place('pe-late-edit', 'pe-late-buyer');
      const edit1 = await edit('pe-late-edit', { resalePricePoisha: 95_000 });
      await list('pe-late-removed');
      const removed = await place('pe-late-removed', 'pe-late-buyer');
      const removal = await remove('pe-late-removed');
      await startPolicy();
      await policy.caughtUp();
      // Not the placing's own reaction: when it landed, the TV was for sale on the terms booked.
      expectCancelledBy(
        (await cancellationsOf(edited.bookingId))[0],
        { bookingId: edited.bookingId, productId: 'pe-late-edit' },
        'listing-edited',
        edit1,
      );
      expectCancelledBy(
        (await cancellationsOf(removed.bookingId))[0],
        { bookingId: removed.bookingId, productId: 'pe-late-removed' },
        'product-removed',
        removal,
      );
      expect(await typesOf(edited.bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
    });

    it('given unpaid bookings of a TV, when its seller only puts its photos in another order, then they stay, but for one placed before terms were counted, whose sale counts every edit (ADR 0073)', async () => {
      await listWithPhotos('pe-reordered');
      const { bookingId } = await place('pe-reordered', 'pe-buyer');
      const legacy = await place('pe-reordered', 'pe-old-client', undefined, 'edits');
      const reordered = await reorder('pe-reordered');
      await policy.caughtUp();
      expect(await typesOf(bookingId)).toEqual(['BookingPlaced']);
      expectCancelledBy(
        (await cancellationsOf(legacy.bookingId))[0],
        { bookingId: legacy.bookingId, productId: 'pe-reordered' },
        'listing-edited',
        reordered,
      );
      // Placed again since (cancelled by the reorder, now with its terms): the next reorder keeps
      // it, the placing at hand deciding, not the first.
      await place('pe-reordered', 'pe-old-client');
      await reorder('pe-reordered');
      await policy.caughtUp();
      expect(await typesOf(legacy.bookingId)).toEqual(['BookingPlaced', 'BookingCancelled', 'BookingPlaced']);
      // Its terms changed after the reorder: cancelled then.
      const priced = await edit('pe-reordered', { resalePricePoisha: 80_000 });
      await policy.caughtUp();
      expectCancelledBy((await cancellationsOf(bookingId))[0], { bookingId, productId: 'pe-reordered' }, 'listing-edited', priced);
    });
  });

  describe('ProductMarkedSold', () => {
    it('given unpaid bookings of a TV, when it is sold to one of them, then the others placed before the sale are cancelled (product-sold, caused by the sale); the buyer it was sold to is untouched', async () => {
      await list('sold');
      const winner = await place('sold', 'sold-winner');
      const others = [await place('sold', 'sold-other-1'), await place('sold', 'sold-other-2')];
      await policy.caughtUp(); // The placings were seen while the TV was for sale.
      const readBeforeTheSale = await loadProductFacts(store, 'sold');
      const sale = await sell('sold', { bookingId: winner.bookingId, buyerId: 'sold-winner' });
      // A booking that raced the sale and landed after it: the sale's reaction must leave it to its own.
      const after = await place('sold', 'sold-after', readBeforeTheSale);
      await policy.caughtUp();

      for (const { bookingId } of others) {
        expect(await typesOf(bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
        expectCancelledBy((await cancellationsOf(bookingId))[0], { bookingId, productId: 'sold' }, 'product-sold', sale);
      }
      expect(await typesOf(winner.bookingId)).toEqual(['BookingPlaced']);
      expect(await cancellationsOf(after.bookingId)).toHaveLength(1);
      expectCancelledBy(
        (await cancellationsOf(after.bookingId))[0],
        { bookingId: after.bookingId, productId: 'sold' },
        'product-sold',
        after.placing,
      );
    });

    it('given sold elsewhere, made available again and booked again, when the policy reacts to the sale late, then only the booking placed before the sale is cancelled (product-marked-sold: no buyer here bought it); the one placed after stays', async () => {
      await policy.stop();
      await list('late');
      const before = await place('late', 'late-before');
      const sale = await sell('late');
      await makeAvailable('late');
      const after = await place('late', 'late-after');
      await startPolicy();
      await policy.caughtUp();

      expect(await typesOf(after.bookingId)).toEqual(['BookingPlaced']);
      expect(await typesOf(before.bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
      expectCancelledBy(
        (await cancellationsOf(before.bookingId))[0],
        { bookingId: before.bookingId, productId: 'late' },
        'product-marked-sold',
        sale,
      );
    });
  });

  it('given a booking placed just after its seller marked the TV sold, when the TV is made available and the booking buys it before the policy reacts, then the late reaction leaves it alone', async () => {
    await policy.stop();
    await list('late-bought');
    const facts = await loadProductFacts(store, 'late-bought');
    await sell('late-bought');
    // Placed on the facts read before the sale (the placing raced it); then the TV is for sale
    // again, and the payment workflow records this booking's sale on the product's stream. Its
    // last step (BookingPaid) has not been appended yet when the policy reacts.
    const { bookingId } = await place('late-bought', 'late-bought-buyer', facts);
    await makeAvailable('late-bought');
    await sell('late-bought', { bookingId, buyerId: 'late-bought-buyer' });
    await startPolicy();
    await policy.caughtUp();
    expect(await typesOf(bookingId)).toEqual(['BookingPlaced']);
  });

  it('ProductRemoved: given unpaid bookings of a TV, when it is removed, then each is cancelled (product-removed, caused by the removal); a paid one stays paid', async () => {
    await list('removed');
    const open = [await place('removed', 'removed-1'), await place('removed', 'removed-2')];
    await list('removed-paid');
    const paid = await place('removed-paid', 'removed-1');
    await pay('removed-paid', 'removed-1', paid.bookingId);
    await policy.caughtUp(); // The placings were seen while the TVs were for sale.
    const removal = await remove('removed');
    await remove('removed-paid');
    await policy.caughtUp();

    for (const { bookingId } of open) {
      expect(await typesOf(bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
      expectCancelledBy((await cancellationsOf(bookingId))[0], { bookingId, productId: 'removed' }, 'product-removed', removal);
    }
    expect(await typesOf(paid.bookingId)).toEqual(['BookingPlaced', 'PaymentIntentCreated', 'BookingPaid']);
  });

  describe('UserDeleted', () => {
    it('given a buyer with unpaid bookings, when the buyer is deleted, then each is cancelled (buyer-deleted, caused by the deletion); their paid one and other buyers’ stay', async () => {
      for (const p of ['ud-1', 'ud-2', 'ud-3']) await list(p);
      const open = [await place('ud-1', 'ud-buyer'), await place('ud-2', 'ud-buyer')];
      const paid = await place('ud-3', 'ud-buyer');
      await pay('ud-3', 'ud-buyer', paid.bookingId);
      const someoneElse = await place('ud-1', 'ud-other');
      const deletion = await deleteUser('ud-buyer', 'Buyer');
      await policy.caughtUp();

      for (const [i, { bookingId }] of open.entries()) {
        expect(await typesOf(bookingId)).toEqual(['BookingPlaced', 'BookingCancelled']);
        expectCancelledBy((await cancellationsOf(bookingId))[0], { bookingId, productId: `ud-${i + 1}` }, 'buyer-deleted', deletion);
      }
      expect(await typesOf(paid.bookingId)).toEqual(['BookingPlaced', 'PaymentIntentCreated', 'BookingPaid']);
      expect(await typesOf(someoneElse.bookingId)).toEqual(['BookingPlaced']);
    });

    it('given bookings of a seller’s TV, when the seller is deleted (or a user with bookings is deleted as a Seller), then no booking changes', async () => {
      await list('ud-seller-tv', 'ud-seller');
      const ofTheirTv = await place('ud-seller-tv', 'ud-buyer-2');
      await deleteUser('ud-seller', 'Seller');
      await deleteUser('ud-buyer-2', 'Seller');
      await policy.caughtUp();
      expect(await typesOf(ofTheirTv.bookingId)).toEqual(['BookingPlaced']);
    });
  });

  it('when the policy reads the log again from an old checkpoint (a restart, a redelivery), then nothing is repeated or newly cancelled', async () => {
    const bookingEvents = async () =>
      (await store.readAll(0, 100_000)).filter((e) => e.streamId.startsWith(streams.booking(''))).map((e) => `${e.streamId}:${e.type}`);
    const before = await bookingEvents();
    await policy.stop();
    await setCheckpoint(db.pool, policyCheckpoint('orders'), 0);
    await startPolicy();
    await policy.caughtUp();
    expect(await bookingEvents()).toEqual(before);
  });
});
