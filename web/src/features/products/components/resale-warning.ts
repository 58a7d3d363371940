import { PLAIN_DECIMAL, priceText } from '@tv-shop/contracts';
import type { FormRule } from 'antd';

export const RESALE_ABOVE_ORIGINAL =
  'This is more than the original price: buyers expect a used TV to cost less. Check it before you save.';

/** A price box's text as a number, or null when it is empty or not a price (its own rule says so). */
const priceOf = (text: unknown): number | null => {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  return trimmed && PLAIN_DECIMAL.test(trimmed) ? priceText(trimmed) : null;
};

/** Whether the resale price typed is above the original price typed (both read as prices). */
export function resaleAboveOriginal(resale: unknown, original: unknown): boolean {
  const r = priceOf(resale);
  const o = priceOf(original);
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
