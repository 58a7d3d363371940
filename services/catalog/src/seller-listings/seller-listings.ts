import type { SellerListingsEvent } from '@tv-shop/contracts';

export const HOUR_MS = 60 * 60_000;

/** One seller's listing slots, folded from `seller_listings-<sellerId>` (ADR 0035). */
export interface SellerListingsState {
  /** The seller's TVs for sale: product id → when its slot was taken (ISO). */
  held: ReadonlyMap<string, string>;
  /** When the seller's newest listings were added (ISO), in the order added: those within an hour of the last one. */
  added: readonly string[];
}

export const initialState = (): SellerListingsState => ({ held: new Map(), added: [] });

export function evolve(state: SellerListingsState, event: SellerListingsEvent): SellerListingsState {
  switch (event.type) {
    case 'ListingSlotTaken': {
      const { productId, at, reason } = event.data;
      const held = new Map(state.held).set(productId, at);
      if (reason !== 'listed') return { ...state, held };
      // Only the last hour's additions can refuse a listing, so older ones need not be carried along.
      const since = Date.parse(at) - HOUR_MS;
      return { held, added: [...state.added.filter((t) => Date.parse(t) > since), at] };
    }
    case 'ListingSlotFreed': {
      if (!state.held.has(event.data.productId)) return state;
      const held = new Map(state.held);
      held.delete(event.data.productId);
      return { ...state, held };
    }
  }
}
