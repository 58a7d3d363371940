import { describe, expect, it } from 'vitest';
import { streams, type ProductListing } from '@tv-shop/contracts';
import type { CommandEnvelope, EventStore, RecordedEvent } from '@tv-shop/platform';
import type { PaymentProvider } from '../payments/provider';
import { placeBooking } from './commands';
import type { BookingCommand } from './decide';
import { bookingIdFor } from './ids';
import type { Bookings } from './stream';

// Orders' PlaceBooking handler alone: the product's stream is a listing held in memory, and the
// booking stream only records what it was asked to decide. No database.

const listing = { name: 'LG 32"', imageUrl: '/api/images/a', resalePricePoisha: 1_200_000, sellerId: 's1' } as ProductListing;
const data = { productId: 'p1', phone: '017', meetingLocation: 'Mirpur 10', buyer: { id: 'u1', name: 'Nila', email: 'nila@example.com' } };

function given() {
  const productStream: Partial<RecordedEvent>[] = [{ type: 'ProductListed', data: listing }];
  const store = {
    readStream: async (id: string) => (id === streams.product('p1') ? productStream : []) as RecordedEvent[],
  } as unknown as EventStore;
  const decided: { bookingId: string; command: BookingCommand }[] = [];
  const bookings: Bookings = {
    run: async (bookingId, command) => {
      decided.push({ bookingId, command });
      return { streamId: streams.booking(bookingId), position: 7, events: [], alreadyDone: false };
    },
    load: async () => ({ history: [], state: { status: 'none' } }),
  };
  const deps = { store, bookings, payments: {} as PaymentProvider };
  const envelope = (aggregateId: string): CommandEnvelope => ({
    service: 'orders',
    type: 'PlaceBooking',
    data,
    aggregateId,
    commandId: 'c1',
    actor: { id: 'u1', role: 'Buyer' },
    correlationId: 'c1',
  });
  return { deps, decided, envelope };
}

describe('PlaceBooking', () => {
  it('given the booking id of this product and buyer, when placed, then the booking stream decides it with the product’s own price', async () => {
    const { deps, decided, envelope } = given();
    const id = bookingIdFor('p1', 'u1');
    await expect(placeBooking(deps, envelope(id), data)).resolves.toEqual({ position: 7, result: { bookingId: id } });
    expect(decided).toMatchObject([
      { bookingId: id, command: { type: 'PlaceBooking', data: { booking: { bookingId: id, pricePoisha: 1_200_000, buyerId: 'u1' } } } },
    ]);
  });

  it('given an aggregate id that is not bookingIdFor(product, buyer), when placed, then 400 on aggregateId and nothing is decided', async () => {
    const { deps, decided, envelope } = given();
    for (const wrong of [bookingIdFor('p2', 'u1'), bookingIdFor('p1', 'u2'), 'b1']) {
      await expect(placeBooking(deps, envelope(wrong), data)).rejects.toMatchObject({
        kind: 'validation',
        status: 400,
        field: 'aggregateId',
      });
    }
    expect(decided).toEqual([]);
  });
});
