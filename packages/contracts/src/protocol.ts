/** Names shared by the web app and the API: where the token is kept, the API prefix, headers. */
export const TOKEN_STORAGE_KEY = 'TV_Shop_Token';
export const API_PREFIX = '/api';
/**
 * Every API read answers this header: the log position all read models had reached before the
 * read ran, so the answer reflects at least that position. A client starts its push stream there
 * (`catch_up` after a reconnect) and ignores pushes for a row at or below it.
 */
export const POSITION_HEADER = 'X-Position';

/**
 * Why the API refuses a session's token: a 401's `detail`. The web app says each in its own words
 * on the login page it sends the user to.
 */
export const SESSION_REFUSED = {
  invalid: 'The session token is invalid or expired',
  accountGone: 'This account no longer exists',
  /** The account's password changed, or its sessions were ended, after the token was issued. */
  ended: 'This session has ended (the password of this account was changed, or it was signed out everywhere); sign in again',
  /** Log Out of this one session (ADR 0066). */
  signedOut: 'This session was signed out; sign in again',
} as const;
