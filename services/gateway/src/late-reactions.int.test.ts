import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@tv-shop/contracts';
import { startCatalog } from '@tv-shop/catalog';
import { bookingDecider, SandboxPaymentProvider, startOrders } from '@tv-shop/orders';
import {
  InProcessChangeFeed,
  InProcessCommandBus,
  PostgresEventStore,
  handleCommand,
  migrate,
  projectionMigrations,
  uuidFromName,
} from '@tv-shop/platform';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { startProjector, type Projector } from '@tv-shop/projector';

/**
 * Policies decide on the state as of their event. Here the orders policy starts only after the
 * whole story is in the log, as it would after downtime or under lag, and must not let an old
 * "sold" cancel a booking made after the TV was made available again.
 */
describe('a late reaction never undoes a newer decision', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let projector: Projector;
  let stopCatalog: () => Promise<void>;
  const bus = new InProcessCommandBus();
  const seller = { id: 'seller-1', name: 'Karim', email: 'karim@example.com' };

  beforeAll(async () => {
    db = await createTestDatabase('late');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    await migrate(db.pool, 'payment-sandbox', SandboxPaymentProvider.migrations);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 200 });
    projector = await startProjector({ pool: db.pool, store, feed: new InProcessChangeFeed() });
    stopCatalog = (await startCatalog({ store, bus, pool: db.pool })).stop;
  });
  afterAll(async () => {
    await stopCatalog();
    await projector.stop();
    await store.close();
    await db.drop();
  });

  let n = 0;
  const meta = (actor: string, role: string) => ({
    commandId: uuidFromName(`late-test:${++n}:${Math.random()}`),
    actor: { id: actor, role },
    correlationId: uuidFromName(`corr:${n}`),
  });
  const toCatalog = (type: string, productId: string, data: unknown) =>
    bus.send({ service: 'catalog', type, aggregateId: productId, data, ...meta(seller.id, 'Seller') });
  const list = async () => {
    const productId = uuidFromName(`product:${++n}`);
    await toCatalog('ListProduct', productId, {
      productId,
      name: 'Sony 43"',
      imageUrl: '/api/images/x',
      details: 'ok',
      location: 'Dhaka',
      resalePricePoisha: 100_000,
      originalPricePoisha: 200_000,
      useDuration: '2 years',
      condition: 'Good',
      phone: '017',
      categoryId: 'sony',
      categoryName: '',
      sellerId: seller.id,
      sellerName: seller.name,
      sellerEmail: seller.email,
      postedOn: '1-1-2026',
    });
    return productId;
  };
  /** What orders knows of an available listing when it decides on a booking. */
  const product = {
    exists: true,
    removed: false,
    sold: false,
    soldTo: null,
    name: 'Sony 43"',
    image: '',
    thumbnail: '',
    pricePoisha: 100_000,
    sellerId: seller.id,
    edits: 0,
    terms: 0,
    termsEdit: 0,
    photos: [],
  };
  /** A buyer's booking, decided as the orders service decides it (the product was available). */
  const book = async (productId: string, buyerId: string) => {
    const bookingId = uuidFromName(`booking:${productId}:${buyerId}`);
    const booking = {
      bookingId,
      productId,
      productName: 'Sony 43"',
      productImage: '',
      pricePoisha: 100_000,
      buyerId,
      buyerName: 'Nila',
      buyerEmail: `${buyerId}@example.com`,
      phone: '018',
      meetingLocation: 'Mirpur',
    };
    await handleCommand(
      store,
      bookingDecider,
      streams.booking(bookingId),
      { type: 'PlaceBooking', data: { booking, product } },
      {
        ...meta(buyerId, 'Buyer'),
        now: () => new Date(),
      },
    );
    return bookingId;
  };
  const cancelled = async (bookingId: string) =>
    (await store.readStream(streams.booking(bookingId))).filter((e) => e.type === 'BookingCancelled').length;

  it('given sold → available → booked in the log, when the policy reacts late, then the booking stays; one booked before the sale is cancelled', async () => {
    // The story the policy has not seen yet.
    const p = await list();
    const bookedBeforeSale = await book(p, 'early-buyer');
    await toCatalog('MarkProductSold', p, { actorId: seller.id });
    await toCatalog('MarkProductAvailable', p, { actorId: seller.id });
    const bookedAfter = await book(p, 'late-buyer');
    await projector.caughtUp();

    const orders = await startOrders({ store, bus, pool: db.pool, payments: new SandboxPaymentProvider(db.pool) });
    try {
      await orders.caughtUp();
      expect(await cancelled(bookedAfter)).toBe(0);
      expect(await cancelled(bookedBeforeSale)).toBe(1);
      await projector.caughtUp();
      const { rows } = await db.pool.query(
        'select id, cancelled, cancel_reason from rm_orders.bookings where product_id = $1 order by placed_at',
        [p],
      );
      expect(rows).toEqual([
        { id: bookedBeforeSale, cancelled: true, cancel_reason: 'the seller marked it sold' },
        { id: bookedAfter, cancelled: false, cancel_reason: null },
      ]);
    } finally {
      await orders.stop();
    }
  });

  /** The first half of paying, as orders does it: an intent for the booking, the card confirmed, the sale recorded on the product. */
  const payUpToTheSale = async (productId: string, bookingId: string, buyerId: string) => {
    const provider = new SandboxPaymentProvider(db.pool);
    const intent = await provider.createIntent({ amount: 100_000, currency: 'bdt', bookingId, idempotencyKey: `test:${bookingId}` });
    await handleCommand(
      store,
      bookingDecider,
      streams.booking(bookingId),
      {
        type: 'RecordPaymentIntent',
        data: { buyerId, paymentIntentId: intent.id, provider: 'sandbox', amountPoisha: 100_000, currency: 'bdt', product },
      },
      { ...meta(buyerId, 'Buyer'), now: () => new Date() },
    );
    await provider.confirm(intent.clientSecret, { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' });
    await bus.send({
      service: 'catalog',
      type: 'RecordSale',
      aggregateId: productId,
      data: { bookingId, buyerName: 'Nila' },
      ...meta(buyerId, 'Buyer'),
    });
    return intent.id;
  };
  /** The second half: the buyer's PayBooking, through orders' own handler. */
  const pay = (bookingId: string, buyerId: string, paymentIntentId: string) =>
    bus.send({
      service: 'orders',
      type: 'PayBooking',
      aggregateId: bookingId,
      data: { buyerId, paymentIntentId },
      ...meta(buyerId, 'Buyer'),
    });
  const paid = async (bookingId: string) => (await store.readStream(streams.booking(bookingId))).some((e) => e.type === 'BookingPaid');

  it('given a payment in flight whose sale is recorded, when a late reaction to an older sale comes, then the booking is not cancelled and the payment completes', async () => {
    const p = await list();
    const b = await book(p, 'paying-buyer');
    await toCatalog('MarkProductSold', p, { actorId: seller.id });
    await toCatalog('MarkProductAvailable', p, { actorId: seller.id });
    const intentId = await payUpToTheSale(p, b, 'paying-buyer');
    await projector.caughtUp();

    const orders = await startOrders({ store, bus, pool: db.pool, payments: new SandboxPaymentProvider(db.pool) });
    try {
      await orders.caughtUp();
      expect(await cancelled(b)).toBe(0);
      await pay(b, 'paying-buyer', intentId);
      expect(await paid(b)).toBe(true);
    } finally {
      await orders.stop();
    }
  });

  it('given a stale cancellation that landed between the sale and the payment, when the payment is retried, then it completes: the product stream decided', async () => {
    const p = await list();
    const b = await book(p, 'retrying-buyer');
    const intentId = await payUpToTheSale(p, b, 'retrying-buyer');
    // The race lost: a late reaction appended its cancellation before the payment's BookingPaid.
    await handleCommand(
      store,
      bookingDecider,
      streams.booking(b),
      { type: 'CancelBooking', data: { reason: 'product-sold', placement: 1 } },
      {
        ...meta('system', 'System'),
        now: () => new Date(),
      },
    );
    expect(await cancelled(b)).toBe(1);

    const orders = await startOrders({ store, bus, pool: db.pool, payments: new SandboxPaymentProvider(db.pool) });
    try {
      await pay(b, 'retrying-buyer', intentId);
      expect(await paid(b)).toBe(true);
      const refunds = (await store.readStream(streams.booking(b))).filter((e) => e.type === 'PaymentRefunded');
      expect(refunds).toHaveLength(0);
      await projector.caughtUp();
      const { rows } = await db.pool.query('select paid, cancelled from rm_orders.bookings where id = $1', [b]);
      expect(rows[0]).toMatchObject({ paid: true });
      const { rows: product } = await db.pool.query('select sold, paid_sale from rm_catalog.products where id = $1', [p]);
      expect(product[0]).toEqual({ sold: true, paid_sale: true });
    } finally {
      await orders.stop();
    }
  });
});
