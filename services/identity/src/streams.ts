import { streamModel, type StreamModel } from '@tv-shop/platform';
import { userDecider } from './user/decide';

/** The streams identity writes, folded by its own functions (the event log's time travel). */
export const identityStreams: StreamModel[] = [streamModel('user', 'identity', userDecider)];
