/** Names shared by the web app and the API: where the token is kept, the API prefix, headers. */
export const TOKEN_STORAGE_KEY = 'TV_Shop_Token';
export const API_PREFIX = '/api';
/**
 * Every API read answers this header: the log position all read models had reached before the
 * read ran, so the answer reflects at least that position. A client starts its push stream there
 * (`catch_up` after a reconnect) and ignores pushes for a row at or below it.
 */
export const POSITION_HEADER = 'X-Position';
