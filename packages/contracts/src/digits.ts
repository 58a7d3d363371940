/** Decimal digits with at most one point ("25000", "1999.5", "25000.", ".5"), unanchored. */
const DECIMAL = String.raw`(?:\d{1,16}(?:\.\d{0,8})?|\.\d{1,8})`;

/**
 * A price as people type it. The browser's price boxes check it; the server's `decimalNumber`
 * reads `SIGNED_DECIMAL` (the same, with an optional sign, refused below 0 by the field's range).
 * Apart from numbers.ts, so the browser can use it without zod.
 */
export const PLAIN_DECIMAL = new RegExp(`^${DECIMAL}$`);
export const SIGNED_DECIMAL = new RegExp(`^-?${DECIMAL}$`);
