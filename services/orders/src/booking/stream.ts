import { streams } from '@tv-shop/contracts';
import { fold, handleCommand, type CommandEnvelope, type CommandOutcome, type EventStore, type RecordedEvent } from '@tv-shop/platform';
import type { BookingEvent, BookingState } from './booking';
import { bookingDecider, type BookingCommand } from './decide';

/** Who asks and why: the envelope's metadata, or a policy's own. */
export type Meta = Omit<CommandEnvelope, 'service' | 'type' | 'data' | 'aggregateId'> & { causationId?: string };

/** The booking streams: decide a command on one (with retries on conflict), or read its state. */
export interface Bookings {
  run(bookingId: string, command: BookingCommand, meta: Meta): Promise<CommandOutcome>;
  load(bookingId: string): Promise<{ history: RecordedEvent[]; state: BookingState }>;
}

export function bookingsIn(store: EventStore, now: () => Date): Bookings {
  return {
    run: (bookingId, command, meta) => handleCommand(store, bookingDecider, streams.booking(bookingId), command, { ...meta, now }),
    load: async (bookingId) => {
      const history = await store.readStream(streams.booking(bookingId));
      const state = fold(
        bookingDecider,
        history.map((e) => ({ type: e.type, data: e.data }) as BookingEvent),
      );
      return { history, state };
    },
  };
}
