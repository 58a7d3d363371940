import { uuidFromName } from '@tv-shop/platform';

/** A user's id follows from their email, so one email can only ever register one stream. */
export const userIdFor = (email: string) => uuidFromName(`user:${email.trim().toLowerCase()}`);
