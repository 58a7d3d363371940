import type { SellerListingsEvent } from '@tv-shop/contracts';
import { tooManyRequests, validation, type Decider } from '@tv-shop/platform';
import type { ListingLimits } from './limits';
import { evolve, HOUR_MS, initialState, type SellerListingsState } from './seller-listings';

/**
 * What catalog asks of a seller's slots around a product command (slots.ts). These are catalog's
 * own, never sent over the bus; time and the limits arrive in them, so `decide` stays pure.
 */
export type SellerListingsCommand =
  | { type: 'OpenListing'; data: { sellerId: string; productId: string; at: string; limits: ListingLimits } }
  | { type: 'ReopenListing'; data: { sellerId: string; productId: string; at: string; limits: ListingLimits } }
  | { type: 'FreeListings'; data: { sellerId: string; productIds: string[]; reason: 'sold' | 'removed' | 'not-for-sale' } }
  /**
   * TVs that hold a slot with no limit checked: the seller's TVs already for sale when their slots
   * are first counted, and a TV the admin or the shop itself lists.
   */
  | { type: 'HoldExisting'; data: { sellerId: string; productIds: string[]; at: string } };

/** The problem's `field`: which limit refused. */
export const ACTIVE_LIMIT = 'active_listings';
export const HOURLY_LIMIT = 'listings_per_hour';
/** Nothing but the seller's own sale or removal frees a slot, so the wait is only a hint. */
export const ACTIVE_RETRY_AFTER_S = 3600;

const tvs = (n: number) => `${n} TV${n === 1 ? '' : 's'}`;

function checkActive(state: SellerListingsState, limits: ListingLimits, before: string): void {
  if (limits.active <= 0 || state.held.size < limits.active) return;
  throw tooManyRequests(
    `You already have ${tvs(limits.active)} for sale, the most one seller may have. Mark one sold or withdraw it before ${before}.`,
    { field: ACTIVE_LIMIT, retryAfter: ACTIVE_RETRY_AFTER_S },
  );
}

function checkHourly(state: SellerListingsState, limits: ListingLimits, at: string): void {
  if (limits.perHour <= 0) return;
  const now = Date.parse(at);
  const inWindow = state.added
    .map((t) => Date.parse(t))
    .filter((t) => t > now - HOUR_MS)
    .sort((a, b) => a - b);
  if (inWindow.length < limits.perHour) return;
  // Another may be added once enough of these have left the hour (one, unless the limit was lowered).
  const seconds = Math.max(1, Math.ceil((inWindow[inWindow.length - limits.perHour]! + HOUR_MS - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  throw tooManyRequests(
    `You have added ${tvs(limits.perHour)} in the last hour, the most allowed. You can add another in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { field: HOURLY_LIMIT, retryAfter: seconds },
  );
}

export function decide(command: SellerListingsCommand, state: SellerListingsState): SellerListingsEvent[] {
  switch (command.type) {
    case 'OpenListing': {
      const { sellerId, productId, at, limits } = command.data;
      // A retried listing holds its slot already: nothing to take, and nothing to refuse.
      if (state.held.has(productId)) return [];
      checkActive(state, limits, 'adding another');
      checkHourly(state, limits, at);
      return [{ type: 'ListingSlotTaken', data: { sellerId, productId, at, reason: 'listed' } }];
    }
    case 'ReopenListing': {
      const { sellerId, productId, at, limits } = command.data;
      if (state.held.has(productId)) return [];
      // Back for sale counts toward what is for sale, not toward the hour's new listings.
      checkActive(state, limits, 'making another available');
      return [{ type: 'ListingSlotTaken', data: { sellerId, productId, at, reason: 'available-again' } }];
    }
    case 'FreeListings': {
      const { sellerId, productIds, reason } = command.data;
      return [...new Set(productIds)]
        .filter((productId) => state.held.has(productId))
        .map((productId): SellerListingsEvent => ({ type: 'ListingSlotFreed', data: { sellerId, productId, reason } }));
    }
    case 'HoldExisting': {
      const { sellerId, productIds, at } = command.data;
      // Not new listings: they count toward what is for sale, never toward the hour.
      return [...new Set(productIds)]
        .filter((productId) => !state.held.has(productId))
        .map((productId): SellerListingsEvent => ({ type: 'ListingSlotTaken', data: { sellerId, productId, at, reason: 'existing' } }));
    }
    default: {
      const unknown: never = command;
      throw validation('type', `is not a seller-listings command: ${(unknown as { type: unknown }).type as string}`);
    }
  }
}

export const sellerListingsDecider: Decider<SellerListingsCommand, SellerListingsEvent, SellerListingsState> = {
  initialState,
  evolve,
  decide,
};
