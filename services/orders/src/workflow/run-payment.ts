import type { CommandOf } from '@tv-shop/contracts';
import { AppError, uuidFromName, type CommandBus, type CommandEnvelope, type CommandReply, type EventStore } from '@tv-shop/platform';
import { loadProductFacts } from '../booking/product-facts';
import type { Bookings } from '../booking/stream';
import type { PaymentProvider } from '../payments/provider';
import { nextPaymentStep, type PaymentFacts, type PaymentProgress, type PaymentStep } from './payment';

type Step<T extends PaymentStep['type']> = Extract<PaymentStep, { type: T }>;

/** The effects the payment workflow asks for. Each throws what its port throws. */
export interface PaymentEffects {
  /** Appends PaymentReceived; false when the booking is no longer open (cancelled meanwhile). */
  receive(step: Step<'ReceivePayment'>): Promise<boolean>;
  /** The facts read again, after the booking changed under the workflow. */
  readAgain(): Promise<PaymentFacts>;
  /** Catalog's RecordSale; a refusal is an AppError under 500. */
  recordSale(step: Step<'RecordSale'>): Promise<void>;
  /** After catalog refused the sale: whether the TV's seller marked it sold themself (no buyer here bought it). */
  soldElsewhere(productId: string): Promise<boolean>;
  refund(step: Step<'Refund'>): Promise<void>;
  /** Appends BookingPaid; answers the position it reached. A conflict (paid meanwhile with another payment) is thrown. */
  appendPaid(step: Step<'AppendBookingPaid'>): Promise<number>;
}

/** Performs the workflow's steps until it answers or refuses. */
export async function runPayment(first: PaymentFacts, effects: PaymentEffects): Promise<CommandReply> {
  const paid = (position: number) => ({ position, result: { bookingId: first.bookingId, paid: true } });
  let facts = first;
  let progress: PaymentProgress = {};
  let readings = 1;
  // A booking changes state a bounded number of times, so reading again ends; past a few it is a 503.
  const readAgain = async () => {
    if (++readings > 3)
      throw new AppError('unavailable', 'The booking is changing; your payment is kept, please try again in a moment', {
        field: 'bookingId',
      });
    return effects.readAgain();
  };
  for (;;) {
    const step = nextPaymentStep(facts, progress);
    switch (step.type) {
      case 'Refuse':
        throw step.error;
      case 'AlreadyPaid':
        return paid(step.position);
      case 'ReceivePayment':
        if (await effects.receive(step)) progress = { ...progress, received: true };
        else {
          // Cancelled (or paid) since it was read: decide again on what it is now.
          facts = await readAgain();
          progress = {};
        }
        break;
      case 'RecordSale': {
        const sale = await saleOutcome(effects.recordSale(step));
        // Why it was refused, in the buyer's words: sold to another booking, or by the seller.
        if (!sale.recorded && sale.refusedAs === 'illegal_state' && !sale.edited)
          sale.soldElsewhere = await effects.soldElsewhere(step.productId);
        progress = { ...progress, sale };
        break;
      }
      case 'Refund':
        await effects.refund(step);
        progress = { ...progress, refunded: true };
        break;
      case 'AppendBookingPaid':
        try {
          return paid(await effects.appendPaid(step));
        } catch (err) {
          // Paid meanwhile with another payment of the same placing (two intents both went
          // through, and the other's workflow got there first: the product's stream took both as
          // this booking's sale). Read again: this payment then bought nothing, and is refunded.
          if (!(err instanceof AppError) || err.kind !== 'conflict') throw err;
          facts = await readAgain();
          progress = {};
        }
        break;
      default: {
        // A new kind of step must be performed here: the compiler asks for it.
        const unknown: never = step;
        throw new Error(`payment step not performed: ${(unknown as { type: string }).type}`);
      }
    }
  }
}

async function saleOutcome(recording: Promise<void>): Promise<Required<PaymentProgress>['sale']> {
  try {
    await recording;
    return { recorded: true };
  } catch (err) {
    // Catalog unreachable or failing: the provider keeps the money until a retry decides (ADR 0006).
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    // Only the product's answer refuses a sale: sold (illegal_state) or gone (not_found). Anything
    // else, such as its stream busy with the seller's writes past the retries, decides nothing: the
    // money stays with the provider and the buyer tries again (503), never a refund for a sale
    // that was not refused.
    if (err.kind !== 'illegal_state' && err.kind !== 'not_found')
      throw new AppError('unavailable', 'The product is busy; your payment is kept, please try again in a moment', { field: 'bookingId' });
    // Edited since it was booked (the product's stream names the listing): refunded as the edit's.
    return { recorded: false, refusedAs: err.kind, ...(err.field === 'listing' ? { edited: true } : {}) };
  }
}

export interface PaymentDeps {
  store: EventStore;
  bus: CommandBus;
  payments: PaymentProvider;
  bookings: Bookings;
}

/** Orders' PayBooking: read the facts, then run the workflow with the real provider, bus and store. */
export async function payBooking(deps: PaymentDeps, env: CommandEnvelope, data: CommandOf<'orders', 'PayBooking'>['data']) {
  const read = () => readPaymentFacts(deps, env.aggregateId, data);
  return runPayment(await read(), paymentEffects(deps, env, read));
}

async function readPaymentFacts(
  { store, payments, bookings }: PaymentDeps,
  bookingId: string,
  { buyerId, paymentIntentId }: CommandOf<'orders', 'PayBooking'>['data'],
): Promise<PaymentFacts> {
  const found = await payments.retrieveIntent(paymentIntentId);
  const facts = { bookingId, buyerId, intent: null, booking: { status: 'none' }, bookingPosition: 0, productSoldTo: null } as const;
  if (!found) return facts;
  const { history, state } = await bookings.load(bookingId);
  const productSoldTo = state.status === 'none' ? null : (await loadProductFacts(store, state.booking.productId)).soldTo;
  const bookingPosition = history[history.length - 1]?.position ?? 0;
  return { ...facts, intent: { ...found, provider: payments.name }, booking: state, bookingPosition, productSoldTo };
}

/** Step ids derive from the payment's command id (`receive:<id>:<placing>`, `sale:<id>`, `refund:<intent>`), so a retry repeats nothing. */
function paymentEffects(
  { store, bus, payments, bookings }: PaymentDeps,
  env: CommandEnvelope,
  readAgain: () => Promise<PaymentFacts>,
): PaymentEffects {
  return {
    receive: async ({ bookingId, paymentIntentId, placement }) => {
      const command = { type: 'ReceivePayment', data: { paymentIntentId, placement } } as const;
      try {
        await bookings.run(bookingId, command, { ...env, commandId: uuidFromName(`receive:${env.commandId}:${placement}`) });
        return true;
      } catch (err) {
        if (err instanceof AppError && err.kind === 'illegal_state') return false;
        throw err;
      }
    },
    readAgain,
    // The step holds the sale's data as the catalog command takes it (its terms only when known).
    recordSale: async ({ type: _step, productId, ...data }) => {
      const sale: CommandOf<'catalog', 'RecordSale'> = { type: 'RecordSale', data };
      const { actor, correlationId } = env;
      await bus.send({
        service: 'catalog',
        ...sale,
        aggregateId: productId,
        commandId: uuidFromName(`sale:${env.commandId}`),
        actor,
        correlationId,
      });
    },
    soldElsewhere: async (productId) => {
      const product = await loadProductFacts(store, productId);
      return product.sold && product.soldTo === null;
    },
    refund: async ({ bookingId, intent, reason, placement }) => {
      await payments.refund(intent.id, `refund:${intent.id}`);
      const command = { type: 'RefundPayment', data: { paymentIntentId: intent.id, reason, placement } } as const;
      await bookings.run(bookingId, command, { ...env, commandId: uuidFromName(`refund:${intent.id}`) });
    },
    appendPaid: async ({ bookingId, command }) => (await bookings.run(bookingId, command, env)).position,
  };
}
