import { PLAIN_DECIMAL, priceText } from '@tv-shop/contracts';

/**
 * A price box's text as a number: null when empty, NaN when it is not a price. A module of its
 * own: the listing form's resale warning reads prices as the search boxes do, without bringing
 * the search's range checks and sentences into the Add and Edit pages' download.
 */
export function priceOf(text: string): number | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  return PLAIN_DECIMAL.test(trimmed) ? priceText(trimmed) : NaN;
}
