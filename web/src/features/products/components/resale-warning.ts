import type { FormRule } from 'antd';
import { priceOf } from '../search/price-of';

export const RESALE_ABOVE_ORIGINAL =
  'This is more than the original price: buyers expect a used TV to cost less. Check it before you save.';

/**
 * Whether the resale price typed is above the original price typed, both read as the search's
 * price boxes read them: an empty box or one that is not a price (NaN) compares as nothing.
 */
export function resaleAboveOriginal(resale: unknown, original: unknown): boolean {
  const r = typeof resale === 'string' ? priceOf(resale) : null;
  const o = typeof original === 'string' ? priceOf(original) : null;
  return r !== null && o !== null && r > o;
}

/**
 * The resale price box's warning: a price above the original is allowed (a set still sealed, a
 * typo in the original) but is most often a slip, so the seller is told before saving. It never
 * blocks the form (antd's `warningOnly`); the server takes such a listing as well.
 */
export const resaleWarningRule: FormRule = ({ getFieldValue }) => ({
  warningOnly: true,
  validator: async (_, value: unknown) => {
    if (resaleAboveOriginal(value, getFieldValue('orginal_price'))) throw new Error(RESALE_ABOVE_ORIGINAL);
  },
});
