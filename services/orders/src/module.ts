import { parseCommand, type CommandOf } from '@tv-shop/contracts';
import {
  checkSender,
  createLogger,
  validation,
  type CommandBus,
  type CommandEnvelope,
  type CommandReply,
  type LogSource,
  type EventStore,
} from '@tv-shop/platform';
import type pg from 'pg';
import { cancelOwnBooking, createPaymentIntent, placeBooking } from './booking/commands';
import { bookingsIn } from './booking/stream';
import type { PaymentProvider } from './payments/provider';
import { confirmSandboxCard, SandboxPaymentProvider } from './payments/sandbox';
import { startSandboxWebhook } from './payments/sandbox-webhook';
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

const log = createLogger('orders');

export type PlaceBookingData = CommandOf<'orders', 'PlaceBooking'>['data'];

/** Orders: bookings, payment intents and payments; cancels bookings that can no longer be paid. */
export async function startOrders({ store, bus, pool, payments, events, now = () => new Date() }: OrdersDeps) {
  const bookings = bookingsIn(store, now);
  const sandbox = payments instanceof SandboxPaymentProvider ? payments : null;
  const handle = async (env: CommandEnvelope): Promise<CommandReply> => {
    const command = parseCommand('orders', env, validation);
    checkSender(ordersSenders, command, env);
    switch (command.type) {
      case 'PlaceBooking':
        return placeBooking({ store, payments, bookings }, env, command.data);
      case 'CreatePaymentIntent':
        return createPaymentIntent({ store, payments, bookings }, env, command.data);
      case 'CancelBooking':
        return cancelOwnBooking({ store, payments, bookings }, env, command.data);
      case 'PayBooking': {
        const reply = await payBooking({ store, bus, payments, bookings }, env, command.data);
        // Heard: the sandbox's webhook need not report this payment (ADR 0059). Should this fail,
        // it reports it anyway, and the same command id changes nothing.
        await sandbox
          ?.reported(command.data.paymentIntentId, env.aggregateId)
          .catch((err: unknown) => log.warn('sandbox: a heard payment stays to be reported', err));
        return reply;
      }
      case 'ConfirmSandboxCard':
        // Not a write to the log: the sandbox plays Stripe's servers. Position 0 waits for nothing.
        return { position: 0, result: await confirmSandboxCard(payments, command.data) };
    }
  };
  bus.register('orders', handle);
  const policy = await startCancellationPolicy({ store, pool, bookings, events });
  // Stripe reports payments through its signed webhook; the sandbox through its own (ADR 0059).
  const webhook = sandbox ? startSandboxWebhook({ sandbox, handle }) : null;
  return {
    stop: async () => {
      await webhook?.stop();
      await policy.stop();
    },
    caughtUp: () => policy.caughtUp(),
    /** Delivers the sandbox's due payment reports now (tests). */
    reportPayments: async () => webhook?.flush(),
  };
}

export { bookingIdFor } from './booking/ids';
