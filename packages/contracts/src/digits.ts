/**
 * A price as people type it: decimal digits with at most one point ("25000", "1999.5", "25000.",
 * ".5"). The server's `decimalNumber` reads it (with an optional sign, refused below 0 by the
 * field's range) and the browser's price boxes check it. Apart from numbers.ts, so the browser
 * can use it without zod.
 */
export const PLAIN_DECIMAL = /^(?:\d{1,16}(?:\.\d{0,8})?|\.\d{1,8})$/;
