// Apart from api.ts (zod's schemas): the web app's shell says why a listing went without loading them.

/**
 * A listing taken off the shop (ProductRemoved): who took it off, on which day, and the category it
 * was in, so its page can say so and point at others like it. A sale does not take a listing off.
 */
export interface RemovedListing {
  /** `withdrawn` by its seller; `reported` or `admin`: the admin removed it; `seller-deleted`: its seller's account was deleted. */
  reason: 'withdrawn' | 'reported' | 'admin' | 'seller-deleted';
  /**
   * The day, in UTC (YYYY-MM-DD), not the time. Absent for `seller-deleted`: that day would be
   * the day the admin closed the seller's account, which is not the public's to know.
   */
  removedOn?: string;
  category: { id: string; name: string };
}

/**
 * Who took a listing off, in the words its 410 (`detail`, after "This TV is no longer for sale: ")
 * and its page (as a sentence, after "On 29 November 2026, " when the day is given) both use.
 */
export const REMOVED_REASON_TEXT: Record<RemovedListing['reason'], string> = {
  withdrawn: 'its seller took it off TV Shop',
  reported: 'TV Shop removed it after it was reported',
  admin: 'TV Shop removed it',
  'seller-deleted': 'its seller is no longer on TV Shop',
};

/** Who took a listing off, in REMOVED_REASON_TEXT's words; a reason it does not know (a newer server's) in general ones. */
export const removedReasonText = (reason: string): string =>
  (REMOVED_REASON_TEXT as Record<string, string | undefined>)[reason] ?? 'it was taken off TV Shop';

/**
 * One of a seller's own listings taken off the shop, as their My Products lists it (`GET
 * /api/seller_removed_products`, newest first): what it was called, who took it off, and the day.
 */
export interface OwnRemovedListing {
  _id: string;
  porduct_name: string;
  reason: Exclude<RemovedListing['reason'], 'seller-deleted'>;
  /** The day, in UTC (YYYY-MM-DD). */
  removedOn: string;
}
