import { z } from 'zod';
import { priceText, SIGNED_DECIMAL } from './digits';

/**
 * A number given in a query string or a form: a JSON number, or the digits people type ("24",
 * " 1999.50 ", and for decimals "38,000" grouped as in `GROUPED_DIGITS`). Blank, hex ("0x10"),
 * exponents ("1e3"), arrays, null and booleans are refused with the field's own message instead
 * of being coerced to some number (`z.coerce` turns "" into 0 and [7] into 7). Pipe the result
 * into the range the field allows.
 */
const plainNumber = (pattern: RegExp, message: string) =>
  z
    .union([z.number(), z.string().trim().regex(pattern, message)], { error: message })
    .transform((v) => (typeof v === 'string' ? priceText(v) : v));

/** A whole number: `wholeNumber().pipe(z.number().int().min(1))`. */
export const wholeNumber = (message = 'must be a whole number') => plainNumber(/^-?\d{1,16}$/, message);

/** A decimal number ("25000", "38,000", "1999.5", "25000."), as a price box gives it, with an optional sign. */
export const decimalNumber = (message = 'must be a number') => plainNumber(SIGNED_DECIMAL, message);
