import type { OrdersEvent } from '@tv-shop/contracts';

export type BookingEvent = OrdersEvent;
type Placed = Extract<BookingEvent, { type: 'BookingPlaced' }>['data'];

export type BookingState =
  | { status: 'none' }
  | { status: 'placed'; booking: Placed; intents: Record<string, number> }
  | { status: 'paid'; booking: Placed; paymentIntentId: string }
  | { status: 'cancelled'; booking: Placed };

export const initialState = (): BookingState => ({ status: 'none' });

export function evolve(state: BookingState, event: BookingEvent): BookingState {
  switch (event.type) {
    case 'BookingPlaced':
      return { status: 'placed', booking: event.data, intents: {} };
    case 'PaymentIntentCreated':
      return state.status === 'placed'
        ? { ...state, intents: { ...state.intents, [event.data.paymentIntentId]: event.data.amountPoisha } }
        : state;
    case 'BookingPaid':
      return state.status === 'placed' ? { status: 'paid', booking: state.booking, paymentIntentId: event.data.paymentIntentId } : state;
    case 'BookingCancelled':
      return state.status === 'placed' ? { status: 'cancelled', booking: state.booking } : state;
  }
}
