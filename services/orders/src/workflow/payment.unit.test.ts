import { describe, expect, it } from 'vitest';
import { AppError, fold, illegalState, notFound, type CommandReply } from '@tv-shop/platform';
import type { BookingEvent } from '../booking/booking';
import { bookingDecider, type ConfirmedIntent } from '../booking/decide';
import { cancelled, intentCreated, paid, placed, succeededIntent } from '../booking/fixtures';
import { nextPaymentStep, type PaymentFacts } from './payment';
import { runPayment, type PaymentEffects } from './run-payment';

// The payment workflow alone (ADR 0006, 0010): given the booking's events, what the product's
// stream says and the provider's intent; when the buyer (or the webhook) pays and catalog answers
// RecordSale; then the steps taken, in order, and the answer or the refusal. No database.

const succeeded = succeededIntent;

type CatalogAnswer = 'records' | AppError;

function given(
  events: BookingEvent[],
  opts: {
    productSoldTo?: string | null;
    intent?: Partial<ConfirmedIntent> | null;
    soldElsewhere?: boolean;
    /** What reached the booking's stream after it was read and before the payment was received. */
    meanwhile?: BookingEvent[];
    /** What reached the booking's stream after the sale was recorded and before BookingPaid was appended. */
    beforePaid?: BookingEvent[];
  } = {},
) {
  const factsOf = (history: BookingEvent[]): PaymentFacts => ({
    bookingId: 'b1',
    buyerId: 'u1',
    intent: opts.intent === null ? null : { ...succeeded, ...opts.intent },
    booking: fold(bookingDecider, history),
    bookingPosition: history.length * 10,
    productSoldTo: opts.productSoldTo ?? null,
  });
  const facts = factsOf(events);
  return {
    facts,
    /** Pays, with catalog answering RecordSale as told; answers the steps taken and the outcome. */
    async whenPaid(catalog: CatalogAnswer = 'records') {
      const steps: string[] = [];
      let stream = events;
      const effects: PaymentEffects = {
        receive: async (s) => {
          if (opts.meanwhile && stream === events) {
            stream = [...events, ...opts.meanwhile];
            steps.push(`ReceivePayment ${s.paymentIntentId} refused: the booking changed`);
          }
          try {
            bookingDecider.decide(
              { type: 'ReceivePayment', data: { paymentIntentId: s.paymentIntentId, placement: s.placement } },
              fold(bookingDecider, stream),
            );
          } catch {
            return false;
          }
          steps.push(`ReceivePayment ${s.paymentIntentId} (placing ${s.placement})`);
          return true;
        },
        readAgain: async () => factsOf(stream),
        recordSale: async (s) => {
          steps.push(`RecordSale ${s.productId} for ${s.bookingId} by ${s.buyerName}`);
          if (catalog !== 'records') throw catalog;
        },
        soldElsewhere: async () => opts.soldElsewhere === true,
        refund: async (s) =>
          void steps.push(`Refund ${s.intent.id} (${s.reason}${s.placement === null ? '' : `, cancels placing ${s.placement}`})`),
        appendPaid: async (s) => {
          if (opts.beforePaid && !stream.includes(opts.beforePaid[0]!)) stream = [...stream, ...opts.beforePaid];
          try {
            bookingDecider.decide(s.command, fold(bookingDecider, stream));
          } catch (err) {
            steps.push(`BookingPaid with ${s.command.data.intent.id} refused: ${(err as Error).message}`);
            throw err;
          }
          steps.push(`BookingPaid with ${s.command.data.intent.id}${s.command.data.saleRecorded ? ' (sale recorded)' : ''}`);
          return 999;
        },
      };
      const outcome: { answered?: CommandReply; refused?: AppError } = await runPayment(facts, effects).then(
        (reply) => ({ answered: reply }),
        (err: unknown) => ({ refused: err as AppError }),
      );
      return { steps, ...outcome };
    },
  };
}

describe('the payment workflow', () => {
  it('given a placed booking and its succeeded intent, when paid, then the sale is recorded first and BookingPaid appended after', async () => {
    const then = await given([placed, intentCreated]).whenPaid();
    expect(then.steps).toEqual([
      'ReceivePayment pi_1 (placing 1)',
      'RecordSale p1 for b1 by Nila',
      'BookingPaid with pi_1 (sale recorded)',
    ]);
    expect(then).toMatchObject({ answered: { position: 999, result: { bookingId: 'b1', paid: true } } });
  });

  it('given a booking already paid with this intent, when paid again (a retry, the webhook), then nothing is done and the answer is the same', async () => {
    const then = await given([placed, intentCreated, paid], { productSoldTo: 'b1' }).whenPaid();
    expect(then.steps).toEqual([]);
    expect(then).toMatchObject({ answered: { position: 30, result: { bookingId: 'b1', paid: true } } });
  });

  it('given a booking already paid with another intent, when paid, then 409 and nothing is done', async () => {
    const then = await given([placed, intentCreated, paid], { intent: { id: 'pi_2' } }).whenPaid();
    expect(then.steps).toEqual([]);
    expect(then.refused).toMatchObject({ status: 409, field: 'bookingId' });
  });

  it('given an intent the provider does not know, when paid, then 400 on transationId', async () => {
    const then = await given([placed, intentCreated], { intent: null }).whenPaid();
    expect(then.steps).toEqual([]);
    expect(then.refused).toMatchObject({ status: 400, field: 'transationId', message: 'transationId is not a known payment' });
  });

  it('given an intent for another booking, of a wrong amount, or not succeeded, when paid, then refused before any step', async () => {
    const other = await given([placed, intentCreated], { intent: { bookingId: 'b2' } }).whenPaid();
    expect(other.refused).toMatchObject({ status: 400, field: 'transationId', message: 'transationId is not a payment for this booking' });
    const amount = await given([placed, intentCreated], { intent: { amount: 100 } }).whenPaid();
    expect(amount.refused).toMatchObject({ status: 400, field: 'transationId', message: /different amount/ });
    const pending = await given([placed, intentCreated], { intent: { status: 'processing' } }).whenPaid();
    expect(pending.refused).toMatchObject({ status: 402, field: 'transationId' });
    for (const then of [other, amount, pending]) expect(then.steps).toEqual([]);
  });

  it("given someone else's booking, when paid, then 404 as if it did not exist", async () => {
    const g = given([placed, intentCreated]);
    g.facts.buyerId = 'u2';
    const then = await g.whenPaid();
    expect(then.steps).toEqual([]);
    expect(then.refused).toMatchObject({ status: 404, field: 'bookingId' });
  });

  it("given someone else's booking cancelled with its money taken, or refunded unrecorded, when another buyer pays with its payment, then 404 and no refund is set in motion", async () => {
    for (const [events, intent] of [
      [[placed, intentCreated, cancelled], {}],
      [[placed, intentCreated, cancelled, placed], { refunded: true }],
    ] as const) {
      const g = given([...events], { intent });
      g.facts.buyerId = 'u2';
      const then = await g.whenPaid();
      expect(then.steps).toEqual([]);
      expect(then.refused).toMatchObject({ status: 404, field: 'bookingId' });
    }
    // The provider (buyerId null) still gets the money back.
    const webhook = given([placed, intentCreated, cancelled]);
    webhook.facts.buyerId = null;
    expect((await webhook.whenPaid()).steps).toEqual(['Refund pi_1 (product-sold)']);
  });

  it('given a booking cancelled before its sale, when its succeeded intent is paid, then the money is refunded and 409 says so', async () => {
    const then = await given([placed, intentCreated, cancelled]).whenPaid();
    expect(then.steps).toEqual(['Refund pi_1 (product-sold)']);
    expect(then.refused).toMatchObject({
      status: 409,
      field: 'bookingId',
      message: 'This product is no longer available; your payment was refunded',
    });
  });

  it('given a booking cancelled because its product was removed, when its succeeded intent is paid, then the refund leaves the removal as the reason', async () => {
    const removed: BookingEvent = { type: 'BookingCancelled', data: { bookingId: 'b1', productId: 'p1', reason: 'product-removed' } };
    const g = given([placed, intentCreated, removed]);
    const step = nextPaymentStep(g.facts, {});
    if (step.type !== 'Refund') throw new Error(`expected a refund, got ${step.type}`);
    // What the booking stream records for that step: the refund alone, no second cancellation.
    const recorded = bookingDecider.decide(
      { type: 'RefundPayment', data: { paymentIntentId: 'pi_1', reason: step.reason, placement: step.placement } },
      g.facts.booking,
    );
    expect(recorded).toEqual([
      {
        type: 'PaymentRefunded',
        data: { bookingId: 'b1', paymentIntentId: 'pi_1', amountPoisha: 1_200_000, reason: 'product-unavailable', ofPlacing: 1 },
      },
    ]);
    expect((await g.whenPaid()).refused).toMatchObject({ status: 409, message: /refunded/ });
  });

  it('given a booking cancelled because its seller changed the listing, when its succeeded intent is paid, then refunded and told why and what to do', async () => {
    const edited: BookingEvent = { type: 'BookingCancelled', data: { bookingId: 'b1', productId: 'p1', reason: 'listing-edited' } };
    const then = await given([placed, intentCreated, edited]).whenPaid();
    expect(then.steps).toEqual(['Refund pi_1 (product-sold)']);
    expect(then.refused).toMatchObject({
      status: 409,
      field: 'bookingId',
      message: /seller changed this listing after you booked it.*refunded.*book it again/,
    });
  });

  it('given a booking its buyer cancelled, when a card of it goes through and is paid, then refunded and told it was their own cancellation', async () => {
    const byBuyer: BookingEvent = { type: 'BookingCancelled', data: { bookingId: 'b1', productId: 'p1', reason: 'buyer-cancelled' } };
    const then = await given([placed, intentCreated, byBuyer]).whenPaid();
    expect(then.steps).toEqual(['Refund pi_1 (product-sold)']);
    expect(then.refused).toMatchObject({
      status: 409,
      field: 'bookingId',
      message: /You cancelled this booking.*refunded.*book the TV again/,
    });
  });

  it('given a product stream too busy to record the sale (a version conflict past its retries), when paid, then 503 and no refund: the money waits for a retry', async () => {
    const busy = new AppError('concurrency', 'Other changes to it were being made at the same moment; please try again');
    const then = await given([placed, intentCreated]).whenPaid(busy);
    expect(then.steps).toEqual(['ReceivePayment pi_1 (placing 1)', 'RecordSale p1 for b1 by Nila']);
    expect(then.refused).toMatchObject({ status: 503, kind: 'unavailable', field: 'bookingId' });
    expect(then.refused?.message).not.toMatch(/version/);
  });

  it('given a cancelled booking whose intent never succeeded, when paid, then refused without a refund', async () => {
    const then = await given([placed, intentCreated, cancelled], { intent: { status: 'processing' } }).whenPaid();
    expect(then.steps).toEqual([]);
    expect(then.refused).toMatchObject({ status: 402 });
  });

  it('given a product sold to someone else, when catalog refuses the sale, then the payment is refunded and 409 says so', async () => {
    const then = await given([placed, intentCreated]).whenPaid(illegalState('This product has already been sold', 'product_id'));
    expect(then.steps).toEqual([
      'ReceivePayment pi_1 (placing 1)',
      'RecordSale p1 for b1 by Nila',
      'Refund pi_1 (product-sold, cancels placing 1)',
    ]);
    expect(then.refused).toMatchObject({
      status: 409,
      field: 'bookingId',
      message: 'This product was sold to someone else meanwhile; your payment was refunded',
    });
  });

  it('given a removed product, when catalog answers not found, then the payment is refunded as product-removed and 409', async () => {
    const then = await given([placed, intentCreated]).whenPaid(notFound('Product'));
    expect(then.steps).toEqual([
      'ReceivePayment pi_1 (placing 1)',
      'RecordSale p1 for b1 by Nila',
      'Refund pi_1 (product-removed, cancels placing 1)',
    ]);
    expect(then.refused).toMatchObject({ status: 409, message: 'This TV was taken off the shop meanwhile; your payment was refunded' });
  });

  it('given its seller marked the TV sold meanwhile, when catalog refuses the sale, then the refund says the seller marked it sold, not another buyer', async () => {
    const then = await given([placed, intentCreated], { soldElsewhere: true }).whenPaid(
      illegalState('This product has already been sold', 'product_id'),
    );
    expect(then.steps).toEqual([
      'ReceivePayment pi_1 (placing 1)',
      'RecordSale p1 for b1 by Nila',
      'Refund pi_1 (product-marked-sold, cancels placing 1)',
    ]);
    expect(then.refused).toMatchObject({ status: 409, message: 'The seller marked this TV sold meanwhile; your payment was refunded' });
  });

  it('given the provider refunded an intent whose refund the stream never recorded, when it pays the booking placed again, then the refund is recorded, nothing cancelled, and 409', async () => {
    const then = await given([placed, intentCreated, cancelled, placed], { intent: { refunded: true } }).whenPaid();
    expect(then.steps).toEqual(['Refund pi_1 (product-sold)']);
    expect(then.refused).toMatchObject({ status: 409, field: 'transationId', message: 'This payment was refunded' });
  });

  it('given catalog unreachable, when paid, then the error stands and nothing is refunded or paid (a retry decides)', async () => {
    const then = await given([placed, intentCreated]).whenPaid(
      new AppError('unavailable', 'The catalog service is unavailable; try again'),
    );
    expect(then.steps).toEqual(['ReceivePayment pi_1 (placing 1)', 'RecordSale p1 for b1 by Nila']);
    expect(then.refused).toMatchObject({ status: 503 });
  });

  it('given a sale recorded for this booking and a stale cancellation after it, when paid, then it pays: the product stream decided', async () => {
    const then = await given([placed, intentCreated, cancelled], { productSoldTo: 'b1' }).whenPaid();
    expect(then.steps).toEqual(['RecordSale p1 for b1 by Nila', 'BookingPaid with pi_1 (sale recorded)']);
    expect(then.answered).toMatchObject({ result: { paid: true } });
  });

  it('given a crash between RecordSale and BookingPaid, when the payment is retried, then the sale is asked again (a no-op) and BookingPaid appended', async () => {
    const then = await given([placed, intentCreated], { productSoldTo: 'b1' }).whenPaid();
    expect(then.steps).toEqual([
      'ReceivePayment pi_1 (placing 1)',
      'RecordSale p1 for b1 by Nila',
      'BookingPaid with pi_1 (sale recorded)',
    ]);
  });

  it('given the buyer cancels after the payment was read and before it was received, when paid, then it is read again, refunded, and 409 in their words; no sale', async () => {
    const byBuyer: BookingEvent = { type: 'BookingCancelled', data: { bookingId: 'b1', productId: 'p1', reason: 'buyer-cancelled' } };
    const then = await given([placed, intentCreated], { meanwhile: [byBuyer] }).whenPaid();
    expect(then.steps).toEqual(['ReceivePayment pi_1 refused: the booking changed', 'Refund pi_1 (product-sold)']);
    expect(then.refused).toMatchObject({ status: 409, message: /You cancelled this booking/ });
  });

  it('given a payment received for this placing, when its buyer cancels, then refused: the sale decides', () => {
    const received: BookingEvent = { type: 'PaymentReceived', data: { bookingId: 'b1', paymentIntentId: 'pi_1' } };
    expect(() =>
      bookingDecider.decide(
        { type: 'CancelOwnBooking', data: { buyerId: 'u1', paymentTaken: false } },
        fold(bookingDecider, [placed, intentCreated, received]),
      ),
    ).toThrow(/gone through/);
  });

  it('given a payment made for an earlier price (the seller changed it and the buyer booked again), when paid, then refunded and the booking stays open', async () => {
    const cancelledForEdit: BookingEvent = {
      type: 'BookingCancelled',
      data: { bookingId: 'b1', productId: 'p1', reason: 'listing-edited' },
    };
    const placedAgain: BookingEvent = { ...placed, data: { ...placed.data, pricePoisha: 1_500_000 } } as BookingEvent;
    const then = await given([placed, intentCreated, cancelledForEdit, placedAgain]).whenPaid();
    expect(then.steps).toEqual(['Refund pi_1 (product-sold)']);
    expect(then.refused).toMatchObject({ status: 409, field: 'transationId', message: /earlier price.*refunded/ });
    // Someone else's call never refunds the buyer's payment.
    const g = given([placed, intentCreated, cancelledForEdit, placedAgain]);
    g.facts.buyerId = 'u2';
    expect((await g.whenPaid()).steps).toEqual([]);
  });

  it('given a booking paid with one payment, when a second payment of it (recorded for it) arrives, then that one is refunded', async () => {
    const second: BookingEvent = { ...intentCreated, data: { ...intentCreated.data, paymentIntentId: 'pi_2' } } as BookingEvent;
    const then = await given([placed, intentCreated, second, paid], { intent: { id: 'pi_2' } }).whenPaid();
    expect(then.steps).toEqual(['Refund pi_2 (product-sold)']);
    expect(then.refused).toMatchObject({ status: 409, message: /already paid with another payment.*refunded/ });
  });

  it('given two payments of one placing racing (both went through), when the other is appended first, then this one is refunded, not kept', async () => {
    // Stripe gives a second intent once the first one's idempotency key expired (24 h): both can
    // succeed. Catalog takes the second RecordSale of the same booking as done, so only the
    // booking's stream tells them apart.
    const second: BookingEvent = { ...intentCreated, data: { ...intentCreated.data, paymentIntentId: 'pi_2' } } as BookingEvent;
    const received: BookingEvent = { type: 'PaymentReceived', data: { bookingId: 'b1', paymentIntentId: 'pi_1' } };
    const then = await given([placed, intentCreated, second], { intent: { id: 'pi_2' }, beforePaid: [received, paid] }).whenPaid();
    expect(then.steps).toEqual([
      'ReceivePayment pi_2 (placing 1)',
      'RecordSale p1 for b1 by Nila',
      'BookingPaid with pi_2 refused: This booking is already paid',
      'Refund pi_2 (product-sold)',
    ]);
    expect(then.refused).toMatchObject({ status: 409, field: 'transationId', message: /already paid with another payment.*refunded/ });
  });

  it('given a booking placed before its seller edited the listing, when catalog refuses the sale on the old terms, then refunded, that placing cancelled, and told why', async () => {
    const edited = new AppError('illegal_state', 'The seller changed this listing after it was booked', { field: 'listing' });
    const then = await given([placed, intentCreated]).whenPaid(edited);
    expect(then.steps).toEqual([
      'ReceivePayment pi_1 (placing 1)',
      'RecordSale p1 for b1 by Nila',
      'Refund pi_1 (listing-edited, cancels placing 1)',
    ]);
    expect(then.refused).toMatchObject({ status: 409, message: /seller changed this listing after you booked it.*refunded/ });
  });

  it('given a payment received and then refunded (the booking stays open), when its buyer cancels, then it is cancelled: nothing holds it', () => {
    const received: BookingEvent = { type: 'PaymentReceived', data: { bookingId: 'b1', paymentIntentId: 'pi_1' } };
    const refunded: BookingEvent = {
      type: 'PaymentRefunded',
      data: { bookingId: 'b1', paymentIntentId: 'pi_1', amountPoisha: 1_200_000, reason: 'product-unavailable' },
    };
    expect(
      bookingDecider.decide(
        { type: 'CancelOwnBooking', data: { buyerId: 'u1', paymentTaken: false } },
        fold(bookingDecider, [placed, intentCreated, received, refunded]),
      ),
    ).toMatchObject([{ type: 'BookingCancelled', data: { reason: 'buyer-cancelled' } }]);
  });

  it('given a booking placed again since the workflow read it, when the payment is received for the earlier placing, then refused', () => {
    const again: BookingEvent[] = [placed, intentCreated, cancelled, placed];
    expect(() =>
      bookingDecider.decide({ type: 'ReceivePayment', data: { paymentIntentId: 'pi_1', placement: 1 } }, fold(bookingDecider, again)),
    ).toThrow(/no longer open/);
    expect(
      bookingDecider.decide({ type: 'ReceivePayment', data: { paymentIntentId: 'pi_1', placement: 2 } }, fold(bookingDecider, again)),
    ).toMatchObject([{ type: 'PaymentReceived' }]);
  });

  it('is a pure function of the facts and the progress', () => {
    const { facts } = given([placed, intentCreated]);
    expect(nextPaymentStep(facts, {})).toEqual({ type: 'ReceivePayment', bookingId: 'b1', paymentIntentId: 'pi_1', placement: 1 });
    expect(nextPaymentStep(facts, { received: true })).toEqual({ type: 'RecordSale', productId: 'p1', bookingId: 'b1', buyerName: 'Nila' });
    expect(nextPaymentStep(facts, { received: true, sale: { recorded: true } })).toMatchObject({
      type: 'AppendBookingPaid',
      command: { type: 'PayBooking', data: { buyerId: 'u1', saleRecorded: true } },
    });
    expect(nextPaymentStep(facts, { sale: { recorded: false, refusedAs: 'illegal_state' } })).toMatchObject({
      type: 'Refund',
      reason: 'product-sold',
    });
    expect(nextPaymentStep(facts, { sale: { recorded: false, refusedAs: 'illegal_state' }, refunded: true })).toMatchObject({
      type: 'Refuse',
    });
  });
});
