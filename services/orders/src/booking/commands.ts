import type { CommandOf, ResultOf } from '@tv-shop/contracts';
import { notFound, validation, type CommandEnvelope, type CommandReply, type EventStore } from '@tv-shop/platform';
import type { PaymentProvider } from '../payments/provider';
import { bookingDecider, type BookingCommand } from './decide';
import { bookingIdFor } from './ids';
import { loadProductFacts } from './product-facts';
import type { Bookings } from './stream';

export interface BookingDeps {
  store: EventStore;
  payments: PaymentProvider;
  bookings: Bookings;
}

/**
 * PlaceBooking: the price and product data come from the product's stream, never the form. The
 * stream is the one `bookingIdFor` names for this product and buyer, whatever the sender says:
 * booking again must land in the same stream, or a buyer could hold two unpaid bookings of one TV.
 */
export async function placeBooking(
  { store, bookings }: BookingDeps,
  env: CommandEnvelope,
  d: CommandOf<'orders', 'PlaceBooking'>['data'],
): Promise<CommandReply> {
  const bookingId = bookingIdFor(d.productId, d.buyer.id);
  if (env.aggregateId !== bookingId) throw validation('aggregateId', 'is not the booking id of this product and buyer');
  const product = await loadProductFacts(store, d.productId);
  const booking = {
    bookingId,
    productId: d.productId,
    productName: product.name,
    productImage: product.image,
    ...(product.thumbnail ? { productThumbnail: product.thumbnail } : {}),
    pricePoisha: product.pricePoisha,
    buyerId: d.buyer.id,
    buyerName: d.buyer.name,
    buyerEmail: d.buyer.email,
    phone: d.phone,
    meetingLocation: d.meetingLocation,
    listingEdits: product.edits,
    listingTerms: product.terms,
  };
  const seen = d.listingEdits === undefined ? {} : { seenEdits: d.listingEdits };
  const out = await bookings.run(bookingId, { type: 'PlaceBooking', data: { booking, product, ...seen } }, env);
  return { position: out.position, result: { bookingId } };
}

/** CreatePaymentIntent: one intent per booking and price, for the booking's own price. */
export async function createPaymentIntent(
  { store, payments, bookings }: BookingDeps,
  env: CommandEnvelope,
  { buyerId }: CommandOf<'orders', 'CreatePaymentIntent'>['data'],
): Promise<{ position: number; result: ResultOf<'CreatePaymentIntent'> }> {
  const bookingId = env.aggregateId;
  const { state } = await bookings.load(bookingId);
  if (state.status === 'none' || state.booking.buyerId !== buyerId) throw notFound('Booking', 'bookingId');
  const product = await loadProductFacts(store, state.booking.productId);
  const recordIntent = (paymentIntentId: string, amountPoisha: number, currency: string): BookingCommand => ({
    type: 'RecordPaymentIntent',
    data: { buyerId, paymentIntentId, provider: payments.name, amountPoisha, currency, product },
  });
  // Refuse before anything is created at the provider (paid, cancelled, product gone).
  bookingDecider.decide(recordIntent('pi_check', state.booking.pricePoisha, 'bdt'), state);
  // Asking again (a reload, a second tab) gives the same intent, so a booking can never be charged
  // twice. Once an intent of the booking was refunded (it was cancelled, then placed again), the
  // key moves on: the refunded intent can pay for nothing, so the buyer gets a new one.
  const refunds = Object.keys(state.refunded).length;
  const intent = await payments.createIntent({
    amount: state.booking.pricePoisha,
    currency: 'bdt',
    bookingId,
    idempotencyKey: `intent:${bookingId}:${state.booking.pricePoisha}${refunds > 0 ? `:after-refund-${refunds}` : ''}`,
  });
  const out = await bookings.run(bookingId, recordIntent(intent.id, intent.amount, intent.currency), env);
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

/**
 * CancelBooking: the buyer calls off their own open booking (ADR 0058). Before deciding, orders
 * asks whether money for it has moved: the product's stream naming this booking as its buyer, or
 * an intent that could pay this placing that the provider says went through (or is going through)
 * and was not given back. Such a booking is not cancelled; its payment finishes the sale. The
 * booking's own stream settles the rest: once the payment workflow appended PaymentReceived the
 * decider refuses, and a payment that comes after the cancellation buys nothing and is refunded.
 */
export async function cancelOwnBooking(
  { store, payments, bookings }: BookingDeps,
  env: CommandEnvelope,
  { buyerId }: CommandOf<'orders', 'CancelBooking'>['data'],
): Promise<CommandReply> {
  const bookingId = env.aggregateId;
  const { state } = await bookings.load(bookingId);
  let paymentTaken = false;
  if (state.status === 'placed' && state.booking.buyerId === buyerId) {
    const product = await loadProductFacts(store, state.booking.productId);
    paymentTaken = product.soldTo === bookingId;
    for (const [id, amount] of Object.entries(state.intents)) {
      if (paymentTaken) break;
      // Refunded, or for an earlier price: it cannot buy this placing (its payment is refunded when it comes).
      if (state.refunded[id] || amount !== state.booking.pricePoisha) continue;
      const intent = await payments.retrieveIntent(id);
      paymentTaken = intent !== null && !intent.refunded && (intent.status === 'succeeded' || intent.status === 'processing');
    }
  }
  const out = await bookings.run(bookingId, { type: 'CancelOwnBooking', data: { buyerId, paymentTaken } }, env);
  return { position: out.position, result: { changed: out.events.length > 0 } };
}
