import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@tv-shop/contracts';
import { InProcessCommandBus, migrate, type Actor } from '@tv-shop/platform';
import { createTestLog, type TestLog } from '@tv-shop/platform/testing';
import { startOrders } from './module';
import { ordersProjection } from './read-model/orders.projection';
import { SandboxPaymentProvider } from './payments/sandbox';
import { bookingIdFor } from './booking/ids';
import { listing } from './booking/fixtures';

// Orders on its own bus and a real log, with a TV for sale: a command its sender may not send is
// refused (403) before anything is read from the provider or appended; the same command from
// its buyer is taken.

let log: TestLog;
let orders: Awaited<ReturnType<typeof startOrders>>;
const bus = new InProcessCommandBus();
beforeAll(async () => {
  log = await createTestLog('orders_senders', ordersProjection);
  await migrate(log.db.pool, 'payment-sandbox', SandboxPaymentProvider.migrations);
  orders = await startOrders({ store: log.store, bus, pool: log.db.pool, payments: new SandboxPaymentProvider(log.db.pool) });
  // A TV for sale, as catalog lists it: what a booking reads.

  const metadata = { actorId: 's1', actorRole: 'Seller', correlationId: 'k-0', causationId: null, at: new Date().toISOString() };
  await log.store.append(
    streams.product('p1'),
    [{ eventId: randomUUID(), type: 'ProductListed', data: listing('p1', 's1'), metadata }],
    'no_stream',
  );
});
afterAll(async () => {
  await orders.stop();
  await log.stop();
});

let n = 0;
const send = (type: string, aggregateId: string, data: unknown, actor: Actor) =>
  bus.send({ service: 'orders', type, aggregateId, data, actor, commandId: `c-${++n}`, correlationId: `k-${n}` });

describe("orders refuses what a command's sender may not send", () => {
  const buyer: Actor = { id: 'b1', role: 'Buyer' };
  const bookingId = bookingIdFor('p1', 'b1');
  const book = { productId: 'p1', phone: '01700000000', meetingLocation: 'Dhaka', buyer: { id: 'b1', name: 'B', email: 'b@x.co' } };

  it('when a buyer books as another buyer, or a seller books, then 403 and the booking stream stays empty', async () => {
    await expect(send('PlaceBooking', bookingId, book, { id: 'b2', role: 'Buyer' })).rejects.toMatchObject({ status: 403 });
    await expect(send('PlaceBooking', bookingId, book, { id: 'b1', role: 'Seller' })).rejects.toMatchObject({ status: 403 });
    expect(await log.store.readStream(streams.booking(bookingId))).toEqual([]);
  });

  it("when a buyer asks to record a payment for whoever booked (the webhook's form), then 403", async () => {
    await expect(send('PayBooking', bookingId, { buyerId: null, paymentIntentId: 'pi_1' }, buyer)).rejects.toMatchObject({
      status: 403,
      message: expect.stringMatching(/Only the shop/),
    });
    await expect(send('CreatePaymentIntent', bookingId, { buyerId: 'b1' }, { id: 'b2', role: 'Buyer' })).rejects.toMatchObject({
      status: 403,
    });
    expect(await log.store.readStream(streams.booking(bookingId))).toEqual([]);
  });

  it('when the buyer books as themself, then the booking is placed, and then a payment for whoever booked from them is still refused', async () => {
    await send('PlaceBooking', bookingId, book, buyer);
    expect((await log.store.readStream(streams.booking(bookingId))).map((e) => e.type)).toEqual(['BookingPlaced']);
    await send('CreatePaymentIntent', bookingId, { buyerId: 'b1' }, buyer);
    await expect(send('PayBooking', bookingId, { buyerId: null, paymentIntentId: 'pi_1' }, buyer)).rejects.toMatchObject({ status: 403 });
    expect((await log.store.readStream(streams.booking(bookingId))).map((e) => e.type)).toEqual(['BookingPlaced', 'PaymentIntentCreated']);
  });
});
