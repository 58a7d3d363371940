import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@tv-shop/contracts';
import { InProcessCommandBus, migrate, type Actor } from '@tv-shop/platform';
import { createTestLog, type TestLog } from '@tv-shop/platform/testing';
import { startOrders } from './module';
import { ordersProjection } from './read-model/orders.projection';
import { SandboxPaymentProvider } from './payments/sandbox';
import { bookingIdFor } from './booking/ids';

// Orders on its own bus and a real log: a command its sender may not send is refused (403)
// before anything is read from the provider or appended.

let log: TestLog;
let orders: Awaited<ReturnType<typeof startOrders>>;
const bus = new InProcessCommandBus();
beforeAll(async () => {
  log = await createTestLog('orders_senders', ordersProjection);
  await migrate(log.db.pool, 'payment-sandbox', SandboxPaymentProvider.migrations);
  orders = await startOrders({ store: log.store, bus, pool: log.db.pool, payments: new SandboxPaymentProvider(log.db.pool) });
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
});
