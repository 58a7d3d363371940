import { streams, type EventOf } from '@tv-shop/contracts';
import {
  AppError,
  createLogger,
  handleCommand,
  notFound,
  startPolicy,
  uuidFromName,
  type CommandBus,
  type CommandEnvelope,
  type EventStore,
  type RecordedEvent,
} from '@tv-shop/platform';
import type pg from 'pg';
import { bookingDecider, type BookingCommand } from './booking/decide';
import { loadProductFacts } from './booking/product-facts';
import type { PaymentProvider } from './payments/provider';

export interface OrdersDeps {
  store: EventStore;
  bus: CommandBus;
  pool: pg.Pool;
  payments: PaymentProvider;
  now?: () => Date;
}

export interface PlaceBookingData {
  productId: string;
  phone: string;
  meetingLocation: string;
  buyer: { id: string; name: string; email: string };
}

/** Orders: bookings, payment intents and payments; cancels bookings that can no longer be paid. */
export async function startOrders({ store, bus, pool, payments, now = () => new Date() }: OrdersDeps) {
  const log = createLogger('orders');
  const run = (bookingId: string, command: BookingCommand, meta: Omit<CommandEnvelope, 'service' | 'type' | 'data' | 'aggregateId'>) =>
    handleCommand(store, bookingDecider, streams.booking(bookingId), command, { ...meta, now });

  bus.register('orders', async (env) => {
    const bookingId = env.aggregateId;
    switch (env.type) {
      case 'PlaceBooking': {
        const d = env.data as PlaceBookingData;
        const product = await loadProductFacts(store, d.productId);
        const booking = {
          bookingId,
          productId: d.productId,
          productName: product.name,
          productImage: product.image,
          pricePoisha: product.pricePoisha,
          buyerId: d.buyer.id,
          buyerName: d.buyer.name,
          buyerEmail: d.buyer.email,
          phone: d.phone,
          meetingLocation: d.meetingLocation,
        };
        const out = await run(bookingId, { type: 'PlaceBooking', data: { booking, product } }, env);
        return { position: out.position, result: { bookingId } };
      }
      case 'CreatePaymentIntent': {
        const { buyerId } = env.data as { buyerId: string };
        const history = await store.readStream(streams.booking(bookingId));
        const placed = history.find((e) => e.type === 'BookingPlaced')?.data as EventOf<'BookingPlaced'>['data'] | undefined;
        if (!placed || placed.buyerId !== buyerId) throw notFound('Booking', 'bookingId');
        const product = await loadProductFacts(store, placed.productId);
        // The amount is the booking's own price, never one sent by the browser.
        const intent = await payments.createIntent({
          amount: placed.pricePoisha,
          currency: 'bdt',
          bookingId,
          idempotencyKey: env.commandId,
        });
        const out = await run(
          bookingId,
          {
            type: 'RecordPaymentIntent',
            data: {
              buyerId,
              paymentIntentId: intent.id,
              provider: payments.name,
              amountPoisha: intent.amount,
              currency: intent.currency,
              product,
            },
          },
          env,
        );
        return {
          position: out.position,
          result: {
            clientSecret: intent.clientSecret,
            paymentIntentId: intent.id,
            amount: intent.amount,
            currency: intent.currency,
            provider: payments.name,
          },
        };
      }
      case 'PayBooking': {
        const { buyerId, paymentIntentId } = env.data as { buyerId: string | null; paymentIntentId: string };
        const intent = await payments.retrieveIntent(paymentIntentId);
        if (!intent) throw new AppError('validation', 'transationId is not a known payment', { field: 'transationId' });
        const history = await store.readStream(streams.booking(bookingId));
        const placed = history.find((e) => e.type === 'BookingPlaced')?.data as EventOf<'BookingPlaced'>['data'] | undefined;
        const product = await loadProductFacts(store, placed?.productId ?? '');
        const out = await run(
          bookingId,
          { type: 'PayBooking', data: { buyerId, intent: { ...intent, provider: payments.name }, product } },
          env,
        );
        return { position: out.position, result: { bookingId, paid: true } };
      }
      default:
        throw new AppError('validation', `Unknown orders command ${env.type}`);
    }
  });

  const cause = (e: RecordedEvent, key: string) => ({
    commandId: uuidFromName(`orders-policy:${e.eventId}:${key}`),
    actor: { id: 'system', role: 'System' },
    correlationId: e.metadata.correlationId,
    causationId: e.eventId,
  });
  const cancelUnpaid = async (
    e: RecordedEvent,
    where: string,
    value: string,
    reason: 'product-sold' | 'product-removed' | 'buyer-deleted',
  ) => {
    const { rows } = await pool.query<{ id: string }>(
      `select id from rm_orders.bookings where ${where} = $1 and not paid and not cancelled`,
      [value],
    );
    for (const { id } of rows) await run(id, { type: 'CancelBooking', data: { reason } }, cause(e, id));
  };
  const policy = await startPolicy({
    name: 'orders',
    pool,
    store,
    log,
    handlers: {
      ProductMarkedSold: (e) => cancelUnpaid(e, 'product_id', (e.data as { productId: string }).productId, 'product-sold'),
      ProductRemoved: (e) => cancelUnpaid(e, 'product_id', (e.data as { productId: string }).productId, 'product-removed'),
      UserDeleted: async (e) => {
        const d = e.data as EventOf<'UserDeleted'>['data'];
        if (d.role === 'Buyer') await cancelUnpaid(e, 'buyer_id', d.userId, 'buyer-deleted');
      },
    },
  });
  return { stop: () => policy.stop() };
}

/** One buyer books one product in one stream: a second unpaid booking of it is a conflict. */
export const bookingIdFor = (productId: string, buyerId: string) => uuidFromName(`booking:${productId}:${buyerId}`);
