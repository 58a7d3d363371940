import { describe, expect, it } from 'vitest';
import type { OrdersCommand } from '@tv-shop/contracts';
import { SYSTEM_ACTOR as system, type Actor } from '@tv-shop/platform';
import { refusalUnder, VISITOR as visitor } from '@tv-shop/platform/testing';
import { ordersSenders } from './senders';

const refusal = refusalUnder('orders', ordersSenders);

const buyer: Actor = { id: 'b1', role: 'Buyer' };
const otherBuyer: Actor = { id: 'b2', role: 'Buyer' };
const seller: Actor = { id: 's1', role: 'Seller' };

describe("who may send orders' commands", () => {
  it('a buyer books, and asks to pay, only as themself', () => {
    const book: OrdersCommand = {
      type: 'PlaceBooking',
      data: { productId: 'p1', phone: '017', meetingLocation: 'Dhaka', buyer: { id: 'b1', name: 'B', email: 'b@x.co' } },
    };
    const intent: OrdersCommand = { type: 'CreatePaymentIntent', data: { buyerId: 'b1' } };
    for (const command of [book, intent]) {
      expect(refusal(command, buyer)).toBeNull();
      expect(refusal(command, otherBuyer)).toMatch(/someone other than who sent it/);
      expect(refusal(command, seller)).toMatch(/Only Buyer/);
      expect(refusal(command, visitor)).toMatch(/Only Buyer/);
    }
  });

  it('a payment names the buyer who sends it; one for whoever booked comes from the shop only (the signed webhook)', () => {
    expect(refusal({ type: 'PayBooking', data: { buyerId: 'b1', paymentIntentId: 'pi' } }, buyer)).toBeNull();
    expect(refusal({ type: 'PayBooking', data: { buyerId: 'b1', paymentIntentId: 'pi' } }, otherBuyer)).not.toBeNull();
    expect(refusal({ type: 'PayBooking', data: { buyerId: null, paymentIntentId: 'pi' } }, system)).toBeNull();
    expect(refusal({ type: 'PayBooking', data: { buyerId: null, paymentIntentId: 'pi' } }, buyer)).toMatch(/Only the shop/);
    expect(refusal({ type: 'PayBooking', data: { buyerId: null, paymentIntentId: 'pi' } }, visitor)).toMatch(/Only the shop/);
  });

  it("the card sandbox is open to whoever holds the intent's secret, as Stripe's servers are", () => {
    const card = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
    expect(refusal({ type: 'ConfirmSandboxCard', data: { clientSecret: 's', card } }, visitor)).toBeNull();
  });
});
