import { streamModel, type StreamModel } from '@tv-shop/platform';
import { bookingDecider } from './booking/decide';

/** The streams orders writes, folded by its own functions (the event log's time travel). */
export const ordersStreams: StreamModel[] = [streamModel('booking', 'orders', bookingDecider)];
