import { AppError, conflict, forbidden, illegalState, notFound, validation, type Decider } from '@tv-shop/platform';
import { cancelReasonText, formatTk, MAX_OWN_CANCELLATIONS, type EventOf } from '@tv-shop/contracts';
import { evolve, initialState, takenNow, type BookingEvent, type BookingState } from './booking';

/** What the orders service knows about a product when it decides (read from the catalog's events). */
export interface ProductFacts {
  exists: boolean;
  removed: boolean;
  sold: boolean;
  /** The booking the product was sold to, if it was sold through one. */
  soldTo: string | null;
  name: string;
  image: string;
  /** The cover's thumbnail, or '' when the listing has none for it. */
  thumbnail: string;
  pricePoisha: number;
  sellerId: string;
  /** How many times its seller edited the listing. */
  edits: number;
  /** How many of those edits changed its terms (`changesTerms`): the terms a booking placed now is at. */
  terms: number;
  /** The last edit that changed its terms, counted as `edits` counts them (the third edit: 3); 0: none did. */
  termsEdit: number;
  /** Its photos in order, the cover first (none before it is listed). */
  photos: string[];
}

/** What the payment provider says about an intent; the browser's word is never enough. */
export interface ConfirmedIntent {
  id: string;
  status: string;
  amount: number;
  currency: string;
  bookingId: string | null;
  provider: string;
  /** The provider says its money went back (whether or not this stream recorded it yet). */
  refunded?: boolean;
}

type Placed = import('./booking').Placed;
type CancelReason = EventOf<'BookingCancelled'>['data']['reason'];
export type BookingCommand =
  /**
   * `seenEdits`: the listing's edit count as the buyer saw it (our web app sends it); a booking
   * is then refused when the seller changed the listing's terms since, so nobody agrees to one
   * price and is booked at another. Edits since that only put its photos in another order are no
   * reason (ADR 0073): the buyer saw the same photos.
   */
  | { type: 'PlaceBooking'; data: { booking: Placed; product: ProductFacts; seenEdits?: number } }
  | {
      type: 'RecordPaymentIntent';
      data: { buyerId: string; paymentIntentId: string; provider: string; amountPoisha: number; currency: string; product: ProductFacts };
    }
  /**
   * The product side (who bought it) is decided first by catalog's RecordSale; see workflow/payment.ts.
   * `saleRecorded`: the product's stream already says this booking bought it. That decision is
   * the authority, so it stands even against a cancellation that a late policy reaction appended
   * in between (ADR "a paid sale is final").
   */
  | { type: 'PayBooking'; data: { buyerId: string | null; intent: ConfirmedIntent; saleRecorded?: boolean } }
  /**
   * `placement`: the placing the workflow saw open and means to cancel with the refund; null when
   * it cancels nothing (the booking was cancelled already). A booking placed again meanwhile is
   * never cancelled by a refund of an earlier placing's payment.
   */
  | {
      type: 'RefundPayment';
      data: { paymentIntentId: string; reason: Exclude<CancelReason, 'buyer-deleted' | 'buyer-cancelled'>; placement: number | null };
    }
  /**
   * `placement` names which placing of the booking a policy means to cancel (see BookingState):
   * a reaction to an old event must not cancel the booking placed again after it.
   */
  | {
      type: 'CancelBooking';
      data: { reason: CancelReason; placement?: number };
    }
  /**
   * The payment workflow, once the provider confirmed a payment of the open booking and before it
   * records the sale: from then on the buyer can no longer cancel it (ADR 0058). Refused when the
   * booking is no longer open: the workflow then reads it again (a cancelled one is refunded).
   */
  | { type: 'ReceivePayment'; data: { paymentIntentId: string; placement: number } }
  /**
   * The buyer calls off their own booking before paying (ADR 0058). `paymentTaken`: what orders
   * read before deciding, that the product's stream says this booking bought it or the provider
   * holds a payment of it that went through or is going through. Such a booking is not theirs to
   * cancel: the sale decides.
   */
  | { type: 'CancelOwnBooking'; data: { buyerId: string; paymentTaken: boolean } };

const productBookable = (p: ProductFacts) => {
  if (!p.exists || p.removed) throw notFound('Product', 'product_id');
  if (p.sold) throw illegalState('This product has already been sold', 'product_id');
};
/** A booking that exists and is this buyer's (any buyer's when `buyerId` is null: the provider's own calls). */
export const isBuyersBooking = (s: BookingState, buyerId: string | null): s is Exclude<BookingState, { status: 'none' }> =>
  s.status !== 'none' && (buyerId === null || s.booking.buyerId === buyerId);
const ownBooking = (s: BookingState, buyerId: string | null): Exclude<BookingState, { status: 'none' }> => {
  if (!isBuyersBooking(s, buyerId)) throw notFound('Booking', 'bookingId');
  return s;
};

type DataOf<T extends BookingCommand['type']> = Extract<BookingCommand, { type: T }>['data'];

/** Whether the listing's terms changed after its `seenEdits`th edit (an edit count it never had counts as changed). */
const onOtherTerms = (product: ProductFacts, seenEdits: number) => seenEdits > product.edits || seenEdits < product.termsEdit;

/** PlaceBooking: one unpaid or paid booking per buyer and product, of an available product that is not their own. */
function decidePlace({ booking, product, seenEdits }: DataOf<'PlaceBooking'>, state: BookingState): BookingEvent[] {
  if (state.status === 'placed') throw conflict('You have already booked this product; pay for it in My Orders', 'product_id');
  if (state.status === 'paid') throw conflict('You have already bought this product', 'product_id');
  if (state.status === 'cancelled' && state.cancelledByBuyer >= MAX_OWN_CANCELLATIONS)
    throw conflict(`You cancelled your booking of this TV ${state.cancelledByBuyer} times: it cannot be booked again`, 'product_id');
  productBookable(product);
  if (product.sellerId === booking.buyerId) throw forbidden('You cannot book your own product');
  if (seenEdits !== undefined && onOtherTerms(product, seenEdits))
    throw conflict(
      `The seller changed this listing since you opened it: it is now ${formatTk(product.pricePoisha / 100)}. Look at it again before booking`,
      'edits',
    );
  return [{ type: 'BookingPlaced', data: booking }];
}

/** RecordPaymentIntent: an intent for the buyer's own open booking of a product still for sale; once per intent. */
function decideRecordIntent(data: DataOf<'RecordPaymentIntent'>, state: BookingState): BookingEvent[] {
  const s = ownBooking(state, data.buyerId);
  if (s.status === 'paid') throw illegalState('This booking is already paid', 'bookingId');
  if (s.status === 'cancelled') throw illegalState('This booking was cancelled', 'bookingId');
  productBookable(data.product);
  const { paymentIntentId, provider, amountPoisha, currency } = data;
  // The provider gave this intent again though its money went back: it can pay for nothing now.
  if (s.refunded[paymentIntentId]) throw illegalState('This payment was refunded; ask for a new one', 'bookingId');
  if (s.intents[paymentIntentId] !== undefined) return [];
  return [{ type: 'PaymentIntentCreated', data: { bookingId: s.booking.bookingId, paymentIntentId, provider, amountPoisha, currency } }];
}

/** PayBooking: the provider's succeeded intent of this booking, for its price, not refunded; once. */
function decidePay(data: DataOf<'PayBooking'>, state: BookingState): BookingEvent[] {
  const { intent } = data;
  const s = ownBooking(state, data.buyerId);
  if (s.status === 'paid') {
    if (s.paidWith === intent.id) return [];
    throw conflict('This booking is already paid', 'bookingId');
  }
  if (intent.bookingId !== s.booking.bookingId || s.intents[intent.id] === undefined)
    throw validation('transationId', 'is not a payment for this booking');
  if (intent.status !== 'succeeded') throw new AppError('payment_required', 'The payment has not succeeded', { field: 'transationId' });
  if (intent.amount !== s.booking.pricePoisha || intent.currency !== 'bdt')
    throw validation('transationId', 'paid a different amount than the booking costs');
  if (s.refunded[intent.id] || intent.refunded) throw illegalState('This payment was refunded', 'transationId');
  if (s.status === 'cancelled' && !data.saleRecorded)
    throw illegalState('This booking was cancelled: the product is no longer available', 'bookingId');
  return [
    {
      type: 'BookingPaid',
      data: {
        bookingId: s.booking.bookingId,
        productId: s.booking.productId,
        buyerId: s.booking.buyerId,
        paymentIntentId: intent.id,
        amountPoisha: intent.amount,
        provider: intent.provider,
      },
    },
  ];
}

/** RefundPayment: a payment that did not buy the booking is refunded once; an open booking is cancelled with it. */
function decideRefund(data: DataOf<'RefundPayment'>, state: BookingState): BookingEvent[] {
  const s = ownBooking(state, null);
  const { paymentIntentId, reason, placement } = data;
  const amountPoisha = s.intents[paymentIntentId];
  if (amountPoisha === undefined || s.refunded[paymentIntentId] || s.paidWith === paymentIntentId) return [];
  // The placing it paid for (the booking may have been placed again since; ADR 0063): the one the
  // workflow saw it paying, or the shop took it in, else the latest it could have paid.
  const ofPlacing = placement ?? s.receivedIn[paymentIntentId] ?? placingPaidBy(s, paymentIntentId, amountPoisha);
  const refunded: BookingEvent = {
    type: 'PaymentRefunded',
    data: {
      bookingId: s.booking.bookingId,
      paymentIntentId,
      amountPoisha,
      reason: 'product-unavailable',
      ...(ofPlacing > 0 ? { ofPlacing } : {}),
    },
  };
  if (s.status !== 'placed' || placement !== s.placements) return [refunded];
  return [refunded, { type: 'BookingCancelled', data: { bookingId: s.booking.bookingId, productId: s.booking.productId, reason } }];
}

/**
 * The latest placing an intent could have paid for: one at its amount, from the placing it was
 * created in, up to the one before a later intent at the same amount was created (a booking
 * placed again at one price reuses its intent, until a refund makes the next one new).
 */
function placingPaidBy(s: Extract<BookingState, { intents: unknown }>, intentId: string, amount: number): number {
  const ids = Object.keys(s.intents);
  const from = s.intentPlacing[intentId] ?? 1;
  const superseded = ids
    .slice(ids.indexOf(intentId) + 1)
    .filter((id) => s.intents[id] === amount && s.intentPlacing[id] !== undefined)
    .map((id) => s.intentPlacing[id]!);
  // An open placing's own payments are taken through PaymentReceived (receivedIn): one the shop
  // never took is of an earlier placing, unless the intent was made in the open one.
  const last = s.status === 'placed' ? s.placements - 1 : s.placements;
  const to = Math.max(from, Math.min(last, ...superseded.map((placing) => placing - 1)));
  for (let placing = to; placing > from; placing--) if (s.placingPrices[placing - 1] === amount) return placing;
  return from;
}

/** CancelBooking: an open booking, and only the placing the policy means when it names one. */
function decideCancel(data: DataOf<'CancelBooking'>, state: BookingState): BookingEvent[] {
  if (state.status !== 'placed') return [];
  if (data.placement !== undefined && data.placement !== state.placements) return [];
  return [
    { type: 'BookingCancelled', data: { bookingId: state.booking.bookingId, productId: state.booking.productId, reason: data.reason } },
  ];
}

/** ReceivePayment: an open booking takes a confirmed payment of its own, once. */
function decideReceive({ paymentIntentId, placement }: DataOf<'ReceivePayment'>, state: BookingState): BookingEvent[] {
  const s = ownBooking(state, null);
  // Placed again since the workflow read it: that placing is not the one it was paying for.
  if (s.status !== 'placed' || placement !== s.placements) throw illegalState('This booking is no longer open', 'bookingId');
  if (s.intents[paymentIntentId] === undefined) throw validation('transationId', 'is not a payment for this booking');
  if (takenNow(s).includes(paymentIntentId)) return [];
  return [{ type: 'PaymentReceived', data: { bookingId: s.booking.bookingId, paymentIntentId } }];
}

/**
 * CancelOwnBooking: the buyer's own open booking, while no payment of it has gone through; a repeat
 * changes nothing. One the shop cancelled meanwhile (sold to another buyer, the listing removed or
 * changed) is refused saying so: the buyer did not cancel it, and it does not count as theirs.
 */
function decideCancelOwn({ buyerId, paymentTaken }: DataOf<'CancelOwnBooking'>, state: BookingState): BookingEvent[] {
  const s = ownBooking(state, buyerId);
  if (s.status === 'paid') throw illegalState('This booking is paid: the TV is yours, and a paid sale is final', 'bookingId');
  if (s.status === 'cancelled') {
    if (s.cancelledFor === 'buyer-cancelled') return [];
    throw illegalState(`This booking was already cancelled: ${cancelReasonText(s.cancelledFor ?? '')}`, 'bookingId');
  }
  // A payment received and not given back holds the booking; one refunded holds nothing.
  if (paymentTaken || takenNow(s).some((id) => !s.refunded[id]))
    throw illegalState('Your payment for this booking has gone through, so it can no longer be cancelled', 'bookingId');
  return [
    { type: 'BookingCancelled', data: { bookingId: s.booking.bookingId, productId: s.booking.productId, reason: 'buyer-cancelled' } },
  ];
}

/** A booking command on the booking's state: the events it leads to, or a refusal. */
export function decide(command: BookingCommand, state: BookingState): BookingEvent[] {
  switch (command.type) {
    case 'PlaceBooking':
      return decidePlace(command.data, state);
    case 'RecordPaymentIntent':
      return decideRecordIntent(command.data, state);
    case 'PayBooking':
      return decidePay(command.data, state);
    case 'RefundPayment':
      return decideRefund(command.data, state);
    case 'CancelBooking':
      return decideCancel(command.data, state);
    case 'CancelOwnBooking':
      return decideCancelOwn(command.data, state);
    case 'ReceivePayment':
      return decideReceive(command.data, state);
    default: {
      const unknown: never = command;
      throw validation('type', `is not a booking command: ${(unknown as { type: unknown }).type as string}`);
    }
  }
}

export const bookingDecider: Decider<BookingCommand, BookingEvent, BookingState> = { initialState, evolve, decide };
