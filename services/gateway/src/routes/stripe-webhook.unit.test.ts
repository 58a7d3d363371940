import { describe, expect, it } from 'vitest';
import { AppError, ConcurrencyError } from '@tv-shop/platform';
import { stripeMayStopSending } from './orders';

// Stripe keeps sending a webhook until the shop answers 2xx: only a final refusal may stop it.
describe("the shop's answer to Stripe's webhook", () => {
  it('when the refusal is final (already paid, product gone and refunded), then Stripe may stop', () => {
    expect(stripeMayStopSending(new AppError('illegal_state', 'This booking was cancelled; your payment was refunded'))).toBe(true);
    expect(stripeMayStopSending(new AppError('not_found', 'Booking not found'))).toBe(true);
  });

  it('when the booking was only busy, the shop overloaded or failing, then Stripe must send it again', () => {
    expect(stripeMayStopSending(new ConcurrencyError('booking-1', '2', 3))).toBe(false);
    expect(stripeMayStopSending(new AppError('too_many_requests', 'Busy'))).toBe(false);
    expect(stripeMayStopSending(new AppError('unavailable', 'The database is unreachable'))).toBe(false);
    expect(stripeMayStopSending(new Error('socket hang up'))).toBe(false);
  });

  it('when Stripe refused the refund the payment is owed, or the answer is a 401 or 403 (no decision of the booking), then Stripe must send it again', () => {
    // The money is not given back yet: each delivery tries the refund again.
    expect(stripeMayStopSending(new AppError('unprocessable', 'The payment provider refused: charge is disputed'))).toBe(false);
    // The system actor's PayBooking is never refused as such; a refused command token is a 503
    // before it gets here (command-token.int.test.ts), and this is the guard behind it.
    expect(stripeMayStopSending(new AppError('unauthorized', 'Commands need the service token'))).toBe(false);
    expect(stripeMayStopSending(new AppError('forbidden', 'Not yours'))).toBe(false);
  });
});
