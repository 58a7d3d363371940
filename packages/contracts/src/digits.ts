/**
 * Whole TK grouped as people in Bangladesh write them: by thousands ("38,000", "1,000,000") or by
 * lakhs ("1,20,000"). The first group never starts with 0 and the last always has three digits,
 * so a decimal comma as written elsewhere ("1,50", "0,500") is refused, never read as 150 or 500.
 */
export const GROUPED_DIGITS = String.raw`(?:[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d?(?:,\d{2})*,\d{3})`;

/** The number a price's text means: its group commas dropped (after one of the patterns here matched it). */
export const priceText = (text: string): number => Number(text.trim().replace(/,/g, ''));

/** Decimal digits, plain or grouped, with at most one point ("25000", "38,000", "1999.5", "25000.", ".5"), unanchored. */
const DECIMAL = String.raw`(?:(?:\d{1,16}|${GROUPED_DIGITS})(?:\.\d{0,8})?|\.\d{1,8})`;

/**
 * A price as people type it. The browser's price boxes check it; the server's `decimalNumber`
 * reads `SIGNED_DECIMAL` (the same, with an optional sign, refused below 0 by the field's range).
 * Apart from numbers.ts, so the browser can use it without zod.
 */
export const PLAIN_DECIMAL = new RegExp(`^${DECIMAL}$`);
export const SIGNED_DECIMAL = new RegExp(`^-?${DECIMAL}$`);

/**
 * A price as TV Shop shows it, in the browser and in the server's messages alike: TK grouped by
 * thousands, with two decimals only when there are poisha ("38,000 TK", "1,999.50 TK").
 */
export function formatTk(amount: number): string {
  const digits = Number.isInteger(amount) ? 0 : 2;
  return `${amount.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: 2 })} TK`;
}
