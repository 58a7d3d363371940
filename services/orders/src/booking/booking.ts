import type { OrdersEvent } from '@tv-shop/contracts';

export type BookingEvent = OrdersEvent;
export type Placed = Extract<BookingEvent, { type: 'BookingPlaced' }>['data'];

export type BookingState =
  | { status: 'none' }
  | {
      status: 'placed' | 'paid' | 'cancelled';
      booking: Placed;
      /**
       * Intents created for this booking, with their amounts, and those refunded: facts about money,
       * so they outlive a cancellation and a placing again (a refunded intent can never pay).
       */
      intents: Record<string, number>;
      refunded: Record<string, true>;
      paidWith: string | null;
      /** How many times the booking was placed in this stream (it may be placed again after a cancellation). */
      placements: number;
      /** The price of each placing, the first first: which placing a refunded payment was for. */
      placingPrices: number[];
      /**
       * The placing each payment the shop took (PaymentReceived) was taken in: the open placing's
       * are those at `placements` (`takenNow`).
       */
      receivedIn: Record<string, number>;
      /** The placing each intent was created in (an intent can pay only from then on). */
      intentPlacing: Record<string, number>;
      /** How many of those placings the buyer called off themselves (a bound on placing it again). */
      cancelledByBuyer: number;
      /** Why its last placing was cancelled, while it is. */
      cancelledFor?: Extract<BookingEvent, { type: 'BookingCancelled' }>['data']['reason'];
    };

export const initialState = (): BookingState => ({ status: 'none' });

export function evolve(state: BookingState, event: BookingEvent): BookingState {
  if (event.type === 'BookingPlaced') {
    if (state.status === 'none')
      return {
        status: 'placed',
        booking: event.data,
        intents: {},
        refunded: {},
        paidWith: null,
        placements: 1,
        placingPrices: [event.data.pricePoisha],
        receivedIn: {},
        intentPlacing: {},
        cancelledByBuyer: 0,
      };
    return {
      ...state,
      status: 'placed',
      booking: event.data,
      paidWith: null,
      placements: state.placements + 1,
      placingPrices: [...state.placingPrices, event.data.pricePoisha],
      cancelledFor: undefined,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'PaymentIntentCreated':
      return {
        ...state,
        intents: { ...state.intents, [event.data.paymentIntentId]: event.data.amountPoisha },
        // The first placing it was made in, should the same intent be recorded again.
        intentPlacing: {
          ...state.intentPlacing,
          [event.data.paymentIntentId]: state.intentPlacing[event.data.paymentIntentId] ?? state.placements,
        },
      };
    case 'PaymentReceived':
      return { ...state, receivedIn: { ...state.receivedIn, [event.data.paymentIntentId]: state.placements } };
    case 'BookingPaid':
      return { ...state, status: 'paid', paidWith: event.data.paymentIntentId };
    case 'BookingCancelled':
      return state.status === 'placed'
        ? {
            ...state,
            status: 'cancelled',
            cancelledFor: event.data.reason,
            cancelledByBuyer: state.cancelledByBuyer + (event.data.reason === 'buyer-cancelled' ? 1 : 0),
          }
        : state;
    case 'PaymentRefunded':
      return { ...state, refunded: { ...state.refunded, [event.data.paymentIntentId]: true } };
  }
}

/** Payments of the open placing the provider confirmed and the shop is recording (PaymentReceived). */
export const takenNow = (s: Extract<BookingState, { receivedIn: unknown }>): string[] =>
  Object.keys(s.receivedIn).filter((id) => s.receivedIn[id] === s.placements);
