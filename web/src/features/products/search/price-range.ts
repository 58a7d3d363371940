import { priceOf } from './price-of';

/** The highest price the server searches by (`money` in the contracts' search query). */
export const HIGHEST_PRICE = 100_000_000;

export const PRICE_SENTENCES = {
  notAPrice: 'Enter a price in TK, like 25000 or 38,000',
  /** Both boxes wrong: the one line under them says so, not only what reads as the first box's. */
  neitherAPrice: 'Enter both prices in TK, like 25000 or 38,000',
  tooHigh: `Enter a price of at most ${HIGHEST_PRICE.toLocaleString('en-US')} TK`,
  minAboveMax: 'Min price must not be above max price',
} as const;

export type PriceField = 'minPrice' | 'maxPrice';

/** What is wrong with a price range, said for a buyer, and which boxes it is about. */
export interface PriceProblem {
  message: string;
  fields: PriceField[];
}

/**
 * Whether the server would search by these prices as typed (it refuses what is not a number,
 * below 0, above 100,000,000, or a min above the max); null when it would. Empty boxes are fine.
 */
export function priceProblem(minPrice: string, maxPrice: string): PriceProblem | null {
  const min = priceOf(minPrice);
  const max = priceOf(maxPrice);
  const notAPrice = (['minPrice', 'maxPrice'] as const).filter((_, i) => Number.isNaN([min, max][i]));
  if (notAPrice.length)
    return { message: notAPrice.length === 2 ? PRICE_SENTENCES.neitherAPrice : PRICE_SENTENCES.notAPrice, fields: notAPrice };
  const tooHigh = (['minPrice', 'maxPrice'] as const).filter((_, i) => ([min, max][i] ?? 0) > HIGHEST_PRICE);
  if (tooHigh.length) return { message: PRICE_SENTENCES.tooHigh, fields: tooHigh };
  if (min !== null && max !== null && min > max) return { message: PRICE_SENTENCES.minAboveMax, fields: ['minPrice', 'maxPrice'] };
  return null;
}

/**
 * What the list shows while a price is being fixed: the range last searched by (a price to fix
 * is not searched by, so the list would otherwise seem to follow what the box shows).
 */
export function heldRange(minPrice: string, maxPrice: string): string {
  const [min, max] = [priceOf(minPrice), priceOf(maxPrice)].map((n) => (n !== null && Number.isFinite(n) ? n : null));
  const tk = (n: number) => `${n.toLocaleString('en-US')} TK`;
  if (min != null && max != null) return `The list still shows TVs from ${tk(min)} to ${tk(max)}.`;
  if (min != null) return `The list still shows TVs from ${tk(min)}.`;
  if (max != null) return `The list still shows TVs up to ${tk(max)}.`;
  return 'The list still shows TVs at any price.';
}

/**
 * The server's refusal of a search's prices (a 400 naming minPrice or maxPrice, as the search
 * error's text begins) in the same words as the filters; null for any other failure.
 */
export function priceRefusal(serverMessage: string): string | null {
  const refused = /^(minPrice|maxPrice)\b(.*)$/s.exec(serverMessage.trim());
  if (!refused) return null;
  const why = refused[2] ?? '';
  if (/more than maxPrice/.test(why)) return PRICE_SENTENCES.minAboveMax;
  if (/too large/.test(why)) return PRICE_SENTENCES.tooHigh;
  return PRICE_SENTENCES.notAPrice;
}
