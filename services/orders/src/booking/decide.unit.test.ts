import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@tv-shop/platform/testing';
import { bookingDecider, type BookingCommand, type ConfirmedIntent } from './decide';
import type { BookingEvent } from './booking';
import { booking, cancelled, intentCreated, paid, placed, product, succeededIntent } from './fixtures';

const intent = succeededIntent;
const pay = (over: Partial<ConfirmedIntent> = {}): BookingCommand => ({
  type: 'PayBooking',
  data: { buyerId: 'u1', intent: { ...intent, ...over } },
});
const given = deciderSpec(bookingDecider);

describe('booking decider', () => {
  it('given an available product, when a buyer books it, then BookingPlaced', () =>
    given().when({ type: 'PlaceBooking', data: { booking, product } }).then([placed]));
  it('given a sold or removed product, when booked, then refused', () => {
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: { ...product, sold: true } } })
      .thenThrows({ kind: 'illegal_state', field: 'product_id' });
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: { ...product, removed: true } } })
      .thenThrows({ kind: 'not_found' });
  });
  it('given an unpaid booking, when the same buyer books the product again, then a conflict', () =>
    given(placed).when({ type: 'PlaceBooking', data: { booking, product } }).thenThrows({ kind: 'conflict' }));
  it('given a listing its seller edited since the buyer saw it, when booked at the edits seen, then a conflict on edits naming the new price', () => {
    const edited = { ...product, edits: 2, terms: 2, termsEdit: 2, pricePoisha: 1_450_050 };
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: edited, seenEdits: 1 } })
      .thenThrows({ kind: 'conflict', field: 'edits', message: expect.stringMatching(/changed this listing.*14,500\.50 TK/) });
    // The terms seen are the terms now, or the sender did not say (the spec's client): booked.
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: edited, seenEdits: 2 } })
      .then([placed]);
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: edited } })
      .then([placed]);
  });
  it('given a listing whose photos were only put in another order since the buyer saw it, when booked at the edits seen, then booked; a change of terms before or after that is refused', () => {
    // Edit 1 changed the price, edits 2 and 3 only moved a photo to the front.
    const reordered = { ...product, edits: 3, terms: 1, termsEdit: 1 };
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: reordered, seenEdits: 1 } })
      .then([placed]);
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: reordered, seenEdits: 2 } })
      .then([placed]);
    // Seen before the price changed; or an edit count the listing never had.
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: reordered, seenEdits: 0 } })
      .thenThrows({ kind: 'conflict', field: 'edits' });
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: reordered, seenEdits: 4 } })
      .thenThrows({ kind: 'conflict', field: 'edits' });
    // A price changed after the reorders the buyer saw.
    given()
      .when({ type: 'PlaceBooking', data: { booking, product: { ...reordered, edits: 4, terms: 2, termsEdit: 4 }, seenEdits: 3 } })
      .thenThrows({ kind: 'conflict', field: 'edits' });
  });
  it('given a seller, when they book their own product, then forbidden', () =>
    given()
      .when({ type: 'PlaceBooking', data: { booking: { ...booking, buyerId: 's1' }, product } })
      .thenThrows({ kind: 'forbidden' }));
  it('given a placed booking with an intent, when the provider confirms it, then BookingPaid; again, nothing', () => {
    given(placed, intentCreated).when(pay()).then([paid]);
    given(placed, intentCreated, paid).when(pay()).then([]);
  });
  it('given a placed booking, when the intent failed, is for another amount, booking or buyer, then refused', () => {
    given(placed, intentCreated)
      .when(pay({ status: 'requires_payment_method' }))
      .thenThrows({ kind: 'payment_required' });
    given(placed, intentCreated)
      .when(pay({ amount: 100 }))
      .thenThrows({ kind: 'validation', field: 'transationId' });
    given(placed, intentCreated)
      .when(pay({ bookingId: 'b2' }))
      .thenThrows({ kind: 'validation' });
    given(placed).when(pay()).thenThrows({ kind: 'validation' });
    given(placed, intentCreated)
      .when({ type: 'PayBooking', data: { buyerId: 'u2', intent } })
      .thenThrows({ kind: 'not_found' });
  });
  it('given a booking cancelled because its product went, when its payment arrives, then refused (the module refunds it)', () =>
    given(placed, intentCreated, cancelled).when(pay()).thenThrows({ kind: 'illegal_state', field: 'bookingId' }));
  it('given a succeeded payment for an unavailable product, when refunded, then PaymentRefunded and the booking cancelled; once only', () => {
    const refundedOf = (ofPlacing: number): BookingEvent => ({
      type: 'PaymentRefunded',
      data: { bookingId: 'b1', paymentIntentId: 'pi_1', amountPoisha: 1_200_000, reason: 'product-unavailable', ofPlacing },
    });
    const refunded = refundedOf(1);
    given(placed, intentCreated)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: 1 } })
      .then([refunded, cancelled]);
    given(placed, intentCreated, cancelled)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: null } })
      .then([refunded]);
    given(placed, intentCreated, refunded, cancelled)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: 1 } })
      .then([]);
    // Placed again while the refund of the first placing's payment ran: the new booking stays.
    given(placed, intentCreated, cancelled, placed)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: 1 } })
      .then([refunded]);
    // Its placing unnamed, and not taken by the shop: not the open placing (its payments are taken
    // through PaymentReceived) but the one before, at the same price here.
    given(placed, intentCreated, cancelled, placed)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: null } })
      .then([refunded]);
    // Both placings cancelled: the latest at the payment's amount, as the intent was reused.
    given(placed, intentCreated, cancelled, placed, cancelled)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: null } })
      .then([refundedOf(2)]);
    given(placed, intentCreated, refunded, cancelled).when(pay()).thenThrows({ kind: 'illegal_state', field: 'transationId' });
  });
  it('given a booking placed again at another price, when a payment of the first placing is refunded late, then the refund names the first placing', () => {
    const again: BookingEvent = { ...placed, data: { ...placed.data, pricePoisha: 1_100_000 } } as BookingEvent;
    const refunded = (ofPlacing: number): BookingEvent => ({
      type: 'PaymentRefunded',
      data: { bookingId: 'b1', paymentIntentId: 'pi_1', amountPoisha: 1_200_000, reason: 'product-unavailable', ofPlacing },
    });
    // The provider's word came after the booking was placed again (a stranded payment: placement null).
    given(placed, intentCreated, cancelled, again)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: null } })
      .then([refunded(1)]);
    // Taken by the shop in its own placing, then refused by the sale: that placing, whatever its price.
    const received: BookingEvent = { type: 'PaymentReceived', data: { bookingId: 'b1', paymentIntentId: 'pi_1' } };
    given(placed, intentCreated, received, cancelled, placed)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: null } })
      .then([refunded(1)]);
  });
  it('given a booking placed again at its first price after a refund made it a new intent, when the first intent is refunded late, then the refund names the placing that intent could pay, not the later one', () => {
    const at = (pricePoisha: number) => ({ ...placed, data: { ...placed.data, pricePoisha } }) as BookingEvent;
    const intentOf = (id: string, amountPoisha: number) =>
      ({ type: 'PaymentIntentCreated', data: { ...intentCreated.data, paymentIntentId: id, amountPoisha } }) as BookingEvent;
    const refund = (id: string, amountPoisha: number, ofPlacing: number): BookingEvent => ({
      type: 'PaymentRefunded',
      data: { bookingId: 'b1', paymentIntentId: id, amountPoisha, reason: 'product-unavailable', ofPlacing },
    });
    // 1: 12,000 TK (pi_1); 2: 11,000 (pi_2, refunded); 3: 12,000 again, a new intent (pi_3) after that refund; 4: 10,000.
    const history = [
      placed,
      intentCreated,
      cancelled,
      at(1_100_000),
      intentOf('pi_2', 1_100_000),
      refund('pi_2', 1_100_000, 2),
      cancelled,
      at(1_200_000),
      intentOf('pi_3', 1_200_000),
      cancelled,
      at(1_000_000),
    ];
    given(...history)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: null } })
      .then([refund('pi_1', 1_200_000, 1)]);
    // pi_3 could pay only the third.
    given(...history)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_3', reason: 'product-sold', placement: null } })
      .then([refund('pi_3', 1_200_000, 3)]);
    // With no new intent, a placing again at the same price reuses pi_1: the later one is named.
    given(placed, intentCreated, cancelled, at(1_100_000), cancelled, at(1_200_000), cancelled, at(1_000_000))
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: null } })
      .then([refund('pi_1', 1_200_000, 3)]);
  });
  it('given a paid booking, when asked to refund the payment that bought it, then nothing', () =>
    given(placed, intentCreated, paid)
      .when({ type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: 'product-sold', placement: 1 } })
      .then([]));
  it('given a placed booking, when cancelled, then BookingCancelled; a paid one stays paid', () => {
    given(placed)
      .when({ type: 'CancelBooking', data: { reason: 'product-sold' } })
      .then([{ type: 'BookingCancelled', data: { bookingId: 'b1', productId: 'p1', reason: 'product-sold' } }]);
    given(placed, intentCreated, paid)
      .when({ type: 'CancelBooking', data: { reason: 'product-sold' } })
      .then([]);
  });
  it('given a booking cancelled and placed again, when a policy cancels the first placing late, then nothing: the new booking stays', () => {
    const cancelled: BookingEvent = { type: 'BookingCancelled', data: { bookingId: 'b1', productId: 'p1', reason: 'product-sold' } };
    given(placed, cancelled, placed)
      .when({ type: 'CancelBooking', data: { reason: 'product-sold', placement: 1 } })
      .then([]);
    given(placed, cancelled, placed)
      .when({ type: 'CancelBooking', data: { reason: 'product-sold', placement: 2 } })
      .then([cancelled]);
  });
  it('given a payment refunded when its booking was cancelled, when the booking is placed again, then that intent can neither be recorded nor pay', () => {
    const refunded: BookingEvent = {
      type: 'PaymentRefunded',
      data: { bookingId: 'b1', paymentIntentId: 'pi_1', amountPoisha: 1_200_000, reason: 'product-unavailable' },
    };
    given(placed, intentCreated, cancelled, refunded, placed).when(pay()).thenThrows({ kind: 'illegal_state', field: 'transationId' });
    given(placed, intentCreated, cancelled, refunded, placed)
      .when({
        type: 'RecordPaymentIntent',
        data: { buyerId: 'u1', paymentIntentId: 'pi_1', provider: 'sandbox', amountPoisha: 1_200_000, currency: 'bdt', product },
      })
      .thenThrows({ kind: 'illegal_state' });
    // A new intent for the new placing pays for it.
    const second: BookingEvent = { type: 'PaymentIntentCreated', data: { ...intentCreated.data, paymentIntentId: 'pi_2' } } as BookingEvent;
    given(placed, intentCreated, cancelled, refunded, placed, second)
      .when(pay({ id: 'pi_2' }))
      .then([{ type: 'BookingPaid', data: { ...(paid.data as object), paymentIntentId: 'pi_2' } } as BookingEvent]);
  });
  it('given money taken for a booking that was cancelled and not refunded, when placed again, then that payment still pays for it, once', () =>
    given(placed, intentCreated, cancelled, placed).when(pay()).then([paid]));
  it('given a booking a late reaction cancelled after its sale was recorded, when it is paid with the sale recorded, then BookingPaid; without, refused', () => {
    const cancelled: BookingEvent = { type: 'BookingCancelled', data: { bookingId: 'b1', productId: 'p1', reason: 'product-sold' } };
    given(placed, intentCreated, cancelled)
      .when({ type: 'PayBooking', data: { buyerId: 'u1', intent, saleRecorded: true } })
      .then([
        {
          type: 'BookingPaid',
          data: { bookingId: 'b1', productId: 'p1', buyerId: 'u1', paymentIntentId: 'pi_1', amountPoisha: 1_200_000, provider: 'sandbox' },
        },
      ]);
    given(placed, intentCreated, cancelled)
      .when({ type: 'PayBooking', data: { buyerId: 'u1', intent } })
      .thenThrows({ kind: 'illegal_state' });
  });
  describe('the buyer cancels their own booking (ADR 0058)', () => {
    const cancelOwn = (buyerId = 'u1', paymentTaken = false): BookingCommand => ({
      type: 'CancelOwnBooking',
      data: { buyerId, paymentTaken },
    });
    const byBuyer: BookingEvent = { type: 'BookingCancelled', data: { bookingId: 'b1', productId: 'p1', reason: 'buyer-cancelled' } };
    it('given their open booking, when they cancel it, then BookingCancelled for buyer-cancelled; again, nothing', () => {
      given(placed).when(cancelOwn()).then([byBuyer]);
      given(placed, intentCreated).when(cancelOwn()).then([byBuyer]);
      given(placed, byBuyer).when(cancelOwn()).then([]);
    });
    it('given a booking the shop cancelled meanwhile (the TV sold to another buyer), when the buyer cancels it, then refused saying why it was', () => {
      given(placed, cancelled)
        .when(cancelOwn())
        .thenThrows({ kind: 'illegal_state', field: 'bookingId', message: 'This booking was already cancelled: sold to another buyer' });
    });
    it("given someone else's booking or none, when asked to cancel it, then not found", () => {
      given(placed).when(cancelOwn('u2')).thenThrows({ kind: 'not_found', field: 'bookingId' });
      given().when(cancelOwn()).thenThrows({ kind: 'not_found' });
    });
    it('given a paid booking, or one whose payment went through, when the buyer cancels, then refused: the money decides', () => {
      given(placed, intentCreated, paid).when(cancelOwn()).thenThrows({ kind: 'illegal_state', field: 'bookingId' });
      given(placed, intentCreated).when(cancelOwn('u1', true)).thenThrows({ kind: 'illegal_state', field: 'bookingId' });
    });
    it('given a TV whose booking the buyer cancelled five times, when they book it again, then a conflict; cancellations by the shop do not count', () => {
      const again: BookingCommand = { type: 'PlaceBooking', data: { booking, product } };
      const fourTimes = [placed, byBuyer, placed, byBuyer, placed, byBuyer, placed, byBuyer];
      given(...fourTimes, placed, byBuyer)
        .when(again)
        .thenThrows({
          kind: 'conflict',
          field: 'product_id',
          message: 'You cancelled your booking of this TV 5 times: it cannot be booked again',
        });
      given(...fourTimes)
        .when(again)
        .then([placed]);
      given(...fourTimes, placed, cancelled, placed, cancelled)
        .when(again)
        .then([placed]);
    });
    it('given a booking the buyer cancelled, when a payment of it arrives, then refused (the workflow refunds it); when placed again, it can be paid', () => {
      given(placed, intentCreated, byBuyer).when(pay()).thenThrows({ kind: 'illegal_state', field: 'bookingId' });
      given(placed, intentCreated, byBuyer, placed).when(pay()).then([paid]);
    });
  });
  it('when a command of a type it does not know reaches decide (a misspelling past the type checker), then 400 on type, never undefined', () =>
    given()
      .when({ type: 'PayBookin', data: {} } as unknown as BookingCommand)
      .thenThrows({ kind: 'validation', field: 'type' }));
});
