/** Page routes of the spec (section 2), defined once for the router and the links. */
export const TOKEN_STORAGE_KEY = 'TV_Shop_Token';
export const API_PREFIX = '/api';
