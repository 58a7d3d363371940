import { streams, type EventOf } from '@tv-shop/contracts';
import {
  AppError,
  createLogger,
  fold,
  handleCommand,
  illegalState,
  notFound,
  startPolicy,
  uuidFromName,
  waitForCheckpoint,
  type CommandBus,
  type CommandEnvelope,
  type EventStore,
  type RecordedEvent,
} from '@tv-shop/platform';
import type pg from 'pg';
import type { BookingEvent } from './booking/booking';
import { bookingDecider, type BookingCommand, type ConfirmedIntent } from './booking/decide';
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

type Meta = Omit<CommandEnvelope, 'service' | 'type' | 'data' | 'aggregateId'>;

/** Orders: bookings, payment intents and payments; cancels bookings that can no longer be paid. */
export async function startOrders({ store, bus, pool, payments, now = () => new Date() }: OrdersDeps) {
  const log = createLogger('orders');
  const run = (bookingId: string, command: BookingCommand, meta: Meta & { causationId?: string }) =>
    handleCommand(store, bookingDecider, streams.booking(bookingId), command, { ...meta, now });
  const loadBooking = async (bookingId: string) => {
    const history = await store.readStream(streams.booking(bookingId));
    return {
      history,
      state: fold(
        bookingDecider,
        history.map((e) => ({ type: e.type, data: e.data }) as BookingEvent),
      ),
    };
  };

  /** Gives the money back for a payment whose product went to someone else, and records that. */
  const refund = async (bookingId: string, intent: ConfirmedIntent, reason: 'product-sold' | 'product-removed', meta: Meta) => {
    await payments.refund(intent.id, `refund:${intent.id}`);
    await run(
      bookingId,
      { type: 'RefundPayment', data: { paymentIntentId: intent.id, reason } },
      { ...meta, commandId: uuidFromName(`refund:${intent.id}`) },
    );
  };

  const payBooking = async (env: CommandEnvelope) => {
    const bookingId = env.aggregateId;
    const { buyerId, paymentIntentId } = env.data as { buyerId: string | null; paymentIntentId: string };
    const found = await payments.retrieveIntent(paymentIntentId);
    if (!found) throw new AppError('validation', 'transationId is not a known payment', { field: 'transationId' });
    const intent: ConfirmedIntent = { ...found, provider: payments.name };
    const { history, state } = await loadBooking(bookingId);
    // A retry after the sale was recorded (a crash, a webhook) finishes the payment even if a late
    // reaction cancelled the booking in between: the product's stream decided who bought it.
    const saleRecorded = state.status !== 'none' && (await loadProductFacts(store, state.booking.productId)).soldTo === bookingId;
    const command: BookingCommand = { type: 'PayBooking', data: { buyerId, intent, saleRecorded } };

    let decided: BookingEvent[];
    try {
      decided = bookingDecider.decide(command, state);
    } catch (err) {
      // Paid for a booking that was cancelled meanwhile (its product was sold or removed): refund.
      if (
        state.status === 'cancelled' &&
        intent.status === 'succeeded' &&
        state.intents[intent.id] !== undefined &&
        !state.refunded[intent.id]
      ) {
        await refund(bookingId, intent, 'product-sold', env);
        throw illegalState('This product is no longer available; your payment was refunded', 'bookingId');
      }
      throw err;
    }
    if (decided.length === 0) return { position: history[history.length - 1]!.position, result: { bookingId, paid: true } };
    if (state.status === 'none') throw notFound('Booking', 'bookingId');

    // The product's own stream decides who bought it, so two buyers can never both pay for it.
    try {
      await bus.send({
        service: 'catalog',
        type: 'RecordSale',
        aggregateId: state.booking.productId,
        data: { bookingId, buyerName: state.booking.buyerName },
        commandId: uuidFromName(`sale:${env.commandId}`),
        actor: env.actor,
        correlationId: env.correlationId,
      });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      await refund(bookingId, intent, err.kind === 'not_found' ? 'product-removed' : 'product-sold', env);
      throw illegalState('This product was sold to someone else meanwhile; your payment was refunded', 'bookingId');
    }
    const out = await run(bookingId, { type: 'PayBooking', data: { buyerId, intent, saleRecorded: true } }, env);
    return { position: out.position, result: { bookingId, paid: true } };
  };

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
        const { state } = await loadBooking(bookingId);
        if (state.status === 'none' || state.booking.buyerId !== buyerId) throw notFound('Booking', 'bookingId');
        const product = await loadProductFacts(store, state.booking.productId);
        const recordIntent = (paymentIntentId: string, amountPoisha: number, currency: string): BookingCommand => ({
          type: 'RecordPaymentIntent',
          data: { buyerId, paymentIntentId, provider: payments.name, amountPoisha, currency, product },
        });
        // Refuse before anything is created at the provider (paid, cancelled, product gone).
        bookingDecider.decide(recordIntent('pi_check', state.booking.pricePoisha, 'bdt'), state);
        // One intent per booking and price: asking again (a reload, a second tab) gives the same one,
        // so a booking can never be charged twice. The amount is the booking's own price.
        const intent = await payments.createIntent({
          amount: state.booking.pricePoisha,
          currency: 'bdt',
          bookingId,
          idempotencyKey: `intent:${bookingId}:${state.booking.pricePoisha}`,
        });
        const out = await run(bookingId, recordIntent(intent.id, intent.amount, intent.currency), env);
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
      case 'PayBooking':
        return payBooking(env);
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
  type CancelReason = 'product-sold' | 'product-removed' | 'buyer-deleted';
  const cancel = (e: RecordedEvent, bookingId: string, reason: CancelReason, placement?: number) =>
    run(bookingId, { type: 'CancelBooking', data: { reason, ...(placement ? { placement } : {}) } }, cause(e, bookingId));
  /**
   * Cancels the placings of bookings that came before event `e` (a sale, a removal), never one
   * placed after it: a late reaction to an old sale must not undo a booking made since.
   */
  const cancelPlacedBefore = async (e: RecordedEvent, productId: string, bookingId: string, reason: CancelReason) => {
    // The product's stream may have sold it to this very booking since (its payment is in flight).
    if ((await loadProductFacts(store, productId)).soldTo === bookingId) return;
    const placement = (await store.readStream(streams.booking(bookingId))).filter(
      (b) => b.type === 'BookingPlaced' && b.position < e.position,
    ).length;
    if (placement > 0) await cancel(e, bookingId, reason, placement);
  };
  /** Unpaid bookings placed before the event at hand, from the read model once it has caught up with that event. */
  const unpaidBookings = async (e: RecordedEvent, where: 'product_id' | 'buyer_id', value: string) => {
    await waitForCheckpoint(pool, 'orders', e.position);
    const { rows } = await pool.query<{ id: string }>(
      `select id from rm_orders.bookings where ${where} = $1 and not paid and not cancelled and placed_at < $2`,
      [value, e.position],
    );
    return rows.map((r) => r.id);
  };
  const policy = await startPolicy({
    name: 'orders',
    pool,
    store,
    log,
    handlers: {
      // A booking that lands just after its product was sold or removed is cancelled at once.
      BookingPlaced: async (e) => {
        const d = e.data as EventOf<'BookingPlaced'>['data'];
        const product = await loadProductFacts(store, d.productId);
        const reason = product.removed ? 'product-removed' : product.sold && product.soldTo !== d.bookingId ? 'product-sold' : null;
        if (!reason) return;
        // This very placing, not one made again later in the same stream.
        const placement = (await store.readStream(streams.booking(d.bookingId))).filter(
          (b) => b.type === 'BookingPlaced' && b.position <= e.position,
        ).length;
        await cancel(e, d.bookingId, reason, placement);
      },
      ProductMarkedSold: async (e) => {
        const { productId, bookingId } = e.data as EventOf<'ProductMarkedSold'>['data'];
        for (const id of await unpaidBookings(e, 'product_id', productId))
          if (id !== bookingId) await cancelPlacedBefore(e, productId, id, 'product-sold');
      },
      ProductRemoved: async (e) => {
        const { productId } = e.data as EventOf<'ProductRemoved'>['data'];
        for (const id of await unpaidBookings(e, 'product_id', productId)) await cancelPlacedBefore(e, productId, id, 'product-removed');
      },
      UserDeleted: async (e) => {
        const d = e.data as EventOf<'UserDeleted'>['data'];
        if (d.role !== 'Buyer') return;
        for (const id of await unpaidBookings(e, 'buyer_id', d.userId)) await cancel(e, id, 'buyer-deleted');
      },
    },
  });
  return { stop: () => policy.stop(), caughtUp: () => policy.caughtUp() };
}

/** One buyer books one product in one stream: a second unpaid booking of it is a conflict. */
export const bookingIdFor = (productId: string, buyerId: string) => uuidFromName(`booking:${productId}:${buyerId}`);
