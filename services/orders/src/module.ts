import { parseCommand, type CommandOf } from '@tv-shop/contracts';
import { checkSender, validation, type CommandBus, type LogSource, type EventStore } from '@tv-shop/platform';
import type pg from 'pg';
import { cancelOwnBooking, createPaymentIntent, placeBooking } from './booking/commands';
import { bookingsIn } from './booking/stream';
import type { PaymentProvider } from './payments/provider';
import { confirmSandboxCard } from './payments/sandbox';
import { startCancellationPolicy } from './workflow/cancellation-policy';
import { payBooking } from './workflow/run-payment';
import { ordersSenders } from './senders';

export interface OrdersDeps {
  store: EventStore;
  bus: CommandBus;
  pool: pg.Pool;
  payments: PaymentProvider;
  /** Where its policy reads the log: the store (default) or Kafka. */
  events?: LogSource | undefined;
  now?: () => Date;
}

export type PlaceBookingData = CommandOf<'orders', 'PlaceBooking'>['data'];

/** Orders: bookings, payment intents and payments; cancels bookings that can no longer be paid. */
export async function startOrders({ store, bus, pool, payments, events, now = () => new Date() }: OrdersDeps) {
  const bookings = bookingsIn(store, now);
  bus.register('orders', async (env) => {
    const command = parseCommand('orders', env, validation);
    checkSender(ordersSenders, command, env);
    switch (command.type) {
      case 'PlaceBooking':
        return placeBooking({ store, payments, bookings }, env, command.data);
      case 'CreatePaymentIntent':
        return createPaymentIntent({ store, payments, bookings }, env, command.data);
      case 'CancelBooking':
        return cancelOwnBooking({ store, payments, bookings }, env, command.data);
      case 'PayBooking':
        return payBooking({ store, bus, payments, bookings }, env, command.data);
      case 'ConfirmSandboxCard':
        // Not a write to the log: the sandbox plays Stripe's servers. Position 0 waits for nothing.
        return { position: 0, result: await confirmSandboxCard(payments, command.data) };
    }
  });
  const policy = await startCancellationPolicy({ store, pool, bookings, events });
  return { stop: () => policy.stop(), caughtUp: () => policy.caughtUp() };
}

export { bookingIdFor } from './booking/ids';
