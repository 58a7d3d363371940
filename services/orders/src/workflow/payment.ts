import { AppError, illegalState, notFound, type ErrorKind } from '@tv-shop/platform';
import type { CancelReason } from '@tv-shop/contracts';
import type { BookingState } from '../booking/booking';
import { bookingDecider, isBuyersBooking, type BookingCommand, type ConfirmedIntent } from '../booking/decide';

/**
 * Paying for a booking (ADR 0006, 0010) as a pure workflow: given what was read before the first
 * step and what each step came to, `nextPaymentStep` says what to do next. The runner
 * (run-payment.ts) performs the steps; this file does no I/O.
 *
 *   check the payment against the booking ─┬─ refused ───────────────────────────────► Refuse
 *                                          ├─ already paid with this intent ─────────► AlreadyPaid
 *                                          ├─ paid for a booking cancelled meanwhile ► Refund ► Refuse
 *                                          ├─ a payment that cannot buy it ──────────► Refund ► Refuse
 *                                          └─ payable ► ReceivePayment ─┬─ taken ► RecordSale (catalog) ─┬─ recorded ► AppendBookingPaid
 *                                                                      │                                └─ refused ─► Refund ► Refuse
 *                                                                      └─ the booking closed meanwhile: read again, start over
 */

export type PayBooking = Extract<BookingCommand, { type: 'PayBooking' }>;

/** What the workflow decides on, read once before its first step. */
export interface PaymentFacts {
  bookingId: string;
  /** The buyer who pays; null for the provider's webhook, which pays for whoever booked. */
  buyerId: string | null;
  /** What the provider says about the intent; null when it does not know the id. */
  intent: ConfirmedIntent | null;
  booking: BookingState;
  /** Position of the booking stream's last event: the answer to a payment already recorded. */
  bookingPosition: number;
  /** The booking the product's own stream says bought it (null: not sold through a booking). */
  productSoldTo: string | null;
}

/** What the steps taken so far came to. */
export interface PaymentProgress {
  /** Catalog's answer to RecordSale: recorded, or refused with the kind of its error. */
  sale?: { recorded: true } | { recorded: false; refusedAs: ErrorKind; soldElsewhere?: boolean; edited?: boolean };
  /** The provider gave the money back and the booking stream says so. */
  refunded?: boolean;
  /** The booking's stream took the payment (PaymentReceived): its buyer can no longer cancel it. */
  received?: boolean;
}

export type RefundReason = Extract<BookingCommand, { type: 'RefundPayment' }>['data']['reason'];

export type PaymentStep =
  /** Answer with this error; nothing (more) to do. */
  | { type: 'Refuse'; error: AppError }
  /** The booking is already paid with this intent (a retry, the webhook after the browser): answer as before. */
  | { type: 'AlreadyPaid'; position: number }
  /**
   * Append PaymentReceived for this placing of the open booking, before the sale is recorded: the
   * booking's own stream decides between the payment and its buyer's cancellation (ADR 0058).
   */
  | { type: 'ReceivePayment'; bookingId: string; paymentIntentId: string; placement: number }
  /** Ask catalog to record the sale on the product's stream, which decides who bought it. */
  | { type: 'RecordSale'; productId: string; bookingId: string; buyerName: string; listingEdits?: number; listingTerms?: number }
  /**
   * Give the money back through the provider and append PaymentRefunded, and BookingCancelled
   * for `placement`, the placing seen open (null: cancel nothing; it was cancelled already).
   */
  | { type: 'Refund'; bookingId: string; intent: ConfirmedIntent; reason: RefundReason; placement: number | null }
  /** Append BookingPaid: the last step. */
  | { type: 'AppendBookingPaid'; bookingId: string; command: PayBooking };

export function nextPaymentStep(facts: PaymentFacts, progress: PaymentProgress): PaymentStep {
  const { intent, booking, bookingId } = facts;
  if (!intent) return refuse(new AppError('validation', 'transationId is not a known payment', { field: 'transationId' }));
  if (progress.sale) return afterTheSale(facts, intent, progress.sale, progress.refunded === true);

  // A retry after the sale was recorded (a crash, a webhook) finishes the payment even if a late
  // reaction cancelled the booking in between: the product's stream decided who bought it.
  const saleRecorded = booking.status !== 'none' && facts.productSoldTo === bookingId;
  let decided;
  try {
    decided = bookingDecider.decide(pay(facts, intent, saleRecorded), booking);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // No booking, or another buyer's (the decider said "not found"): nothing of it is this
    // caller's to set in motion, not even a refund the provider's webhook would make anyway.
    if (!isBuyersBooking(booking, facts.buyerId)) return refuse(err);
    // The provider gave this money back but the stream has not said so (the refund's append
    // failed after the provider's refund): record it (the provider's refund is idempotent),
    // cancelling nothing, and refuse.
    if (refundedUnrecorded(booking, intent) && booking.status !== 'cancelled')
      return progress.refunded ? refuse(err) : { type: 'Refund', bookingId, intent, reason: 'product-sold', placement: null };
    // A payment of this booking that can no longer buy it: made for an earlier price of the TV
    // (the seller changed it, the buyer booked again), or a second one of a booking already paid.
    // Its money goes back; the booking stays as it is (placement null).
    if (strandedPayment(facts, intent)) {
      if (!progress.refunded) return { type: 'Refund', bookingId, intent, reason: 'product-sold', placement: null };
      return refuse(
        illegalState(
          booking.status === 'paid'
            ? 'This booking was already paid with another payment, so this one was refunded'
            : "This payment was for an earlier price of this TV, so it was refunded; pay the booking's price now",
          'transationId',
        ),
      );
    }
    if (!paidForCancelledBooking(booking, intent)) return refuse(err);
    // Paid for a booking that was cancelled meanwhile (its product was sold or removed): refund.
    // This one is cancelled already, so the refund cancels nothing (placement null) and the
    // cancellation's own reason (sold, removed, buyer deleted) stands.
    if (!progress.refunded) return { type: 'Refund', bookingId, intent, reason: 'product-sold', placement: null };
    const why = booking.status === 'cancelled' && booking.cancelledFor ? REFUNDED_BECAUSE[booking.cancelledFor] : undefined;
    return refuse(illegalState(why ?? 'This product is no longer available; your payment was refunded', 'bookingId'));
  }
  if (decided.length === 0) return { type: 'AlreadyPaid', position: facts.bookingPosition };
  if (booking.status === 'none') return refuse(notFound('Booking', 'bookingId'));
  if (booking.status === 'placed' && !progress.received)
    return { type: 'ReceivePayment', bookingId, paymentIntentId: intent.id, placement: booking.placements };
  // The product's own stream decides who bought it, so two buyers can never both pay for it.
  const { productId, buyerName, listingEdits, listingTerms } = booking.booking;
  // On the terms it was booked at: the product's stream refuses the sale if its seller changed them since.
  const terms = { ...(listingEdits !== undefined ? { listingEdits } : {}), ...(listingTerms !== undefined ? { listingTerms } : {}) };
  return { type: 'RecordSale', productId, bookingId, buyerName, ...terms };
}

function afterTheSale(
  facts: PaymentFacts,
  intent: ConfirmedIntent,
  sale: Required<PaymentProgress>['sale'],
  refunded: boolean,
): PaymentStep {
  if (sale.recorded) return { type: 'AppendBookingPaid', bookingId: facts.bookingId, command: pay(facts, intent, true) };
  const reason: RefundReason =
    sale.refusedAs === 'not_found'
      ? 'product-removed'
      : sale.edited
        ? 'listing-edited'
        : sale.soldElsewhere
          ? 'product-marked-sold'
          : 'product-sold';
  if (refunded) return refuse(illegalState(SALE_REFUSED_BECAUSE[reason], 'bookingId'));
  // The placing this payment was for, as read: a booking placed again meanwhile is not cancelled.
  const placement = facts.booking.status === 'placed' ? facts.booking.placements : null;
  return { type: 'Refund', bookingId: facts.bookingId, intent, reason, placement };
}

const pay = (facts: PaymentFacts, intent: ConfirmedIntent, saleRecorded: boolean): PayBooking => ({
  type: 'PayBooking',
  data: { buyerId: facts.buyerId, intent, saleRecorded },
});

const EDITED_AND_REFUNDED =
  'The seller changed this listing after you booked it, so your booking was cancelled and your payment refunded; book it again to buy it as it is now';

/** What a buyer whose payment came after the booking's cancellation is told, where the reason needs more than "no longer available". */
const REFUNDED_BECAUSE: Partial<Record<CancelReason, string>> = {
  'listing-edited': EDITED_AND_REFUNDED,
  'buyer-cancelled':
    'You cancelled this booking before the payment went through, so your payment was refunded; book the TV again to buy it',
};

/** What a buyer whose sale the product's stream refused is told, once their payment went back. */
const SALE_REFUSED_BECAUSE: Record<RefundReason, string> = {
  'product-removed': 'This TV was taken off the shop meanwhile; your payment was refunded',
  'product-marked-sold': 'The seller marked this TV sold meanwhile; your payment was refunded',
  'product-sold': 'This product was sold to someone else meanwhile; your payment was refunded',
  'listing-edited': EDITED_AND_REFUNDED,
};

const refuse = (error: AppError): PaymentStep => ({ type: 'Refuse', error });

/** Money taken for a booking of this stream that a policy cancelled before it could be paid. */
const paidForCancelledBooking = (s: BookingState, intent: ConfirmedIntent) =>
  s.status === 'cancelled' && intent.status === 'succeeded' && s.intents[intent.id] !== undefined && !s.refunded[intent.id];

/**
 * Money taken for this booking, by its own buyer's payment (or the provider's word for whoever
 * booked), that cannot buy the booking as it stands: paid for another price, or the booking is
 * paid with another payment already. Only asked of the booking's own buyer or the provider
 * (`isBuyersBooking` before it): nobody else's call can make it refund a payment.
 */
function strandedPayment(facts: PaymentFacts, intent: ConfirmedIntent): boolean {
  const s = facts.booking;
  if (s.status !== 'placed' && s.status !== 'paid') return false;
  if (intent.status !== 'succeeded' || intent.refunded || intent.bookingId !== facts.bookingId) return false;
  // Recorded here for the amount the provider took: ours, as created.
  if (s.intents[intent.id] !== intent.amount || s.refunded[intent.id] || s.paidWith === intent.id) return false;
  return s.status === 'paid' || intent.amount !== s.booking.pricePoisha;
}

/** An intent of this stream the provider refunded, of which the stream holds no PaymentRefunded. */
const refundedUnrecorded = (s: BookingState, intent: ConfirmedIntent) =>
  intent.refunded === true && s.status !== 'none' && s.intents[intent.id] !== undefined && !s.refunded[intent.id];
