import {
  changesTerms,
  listingPhotos,
  photosAfter,
  type CatalogEvent,
  type ProductListing,
  type SellerListingsEvent,
} from '@tv-shop/contracts';

/** The events of a product's own stream (a seller's listing slots name products too, on the seller's stream). */
export type ProductEvent = Exclude<Extract<CatalogEvent, { data: { productId: string } }>, SellerListingsEvent>;

export type ProductState =
  | { status: 'none' }
  | {
      status: 'listed';
      listing: ProductListing;
      sold: boolean;
      /** The paid booking it was sold through; such a sale is final. Null when sold elsewhere. */
      soldTo: string | null;
      advertised: boolean;
      reported: boolean;
      /** Who reported it: each buyer once. */
      reporters: string[];
      /** Every report it ever had, dismissed ones included: never goes back, unlike `reporters`. */
      reportsTaken: number;
      /** How many times its seller edited it: an edit form made on an older count is refused. */
      edits: number;
      /** How many of those edits changed its terms: a booking is sold on the count it was placed at (ADR 0073). */
      terms: number;
    }
  | { status: 'removed'; listing: ProductListing };

export const initialState = (): ProductState => ({ status: 'none' });

export function evolve(state: ProductState, event: ProductEvent): ProductState {
  if (event.type === 'ProductListed')
    return {
      status: 'listed',
      listing: event.data,
      sold: false,
      soldTo: null,
      advertised: false,
      reported: false,
      reporters: [],
      reportsTaken: 0,
      edits: 0,
      terms: 0,
    };
  if (state.status !== 'listed') return state;
  switch (event.type) {
    case 'ProductEdited': {
      const { changes } = event.data;
      const photos = listingPhotos(state.listing);
      // Photos folded as orders folds them (an edit naming the cover alone leaves that one), so
      // both count the same terms.
      const imageUrls = changes.imageUrl !== undefined || changes.imageUrls ? [...photosAfter(photos, changes)] : state.listing.imageUrls;
      return {
        ...state,
        listing: { ...state.listing, ...changes, ...(imageUrls ? { imageUrls } : {}) },
        edits: state.edits + 1,
        terms: state.terms + (changesTerms(photos, changes) ? 1 : 0),
      };
    }
    case 'ProductMarkedSold':
      return { ...state, sold: true, soldTo: event.data.bookingId ?? null, advertised: false };
    case 'ProductMarkedAvailable':
      return { ...state, sold: false, soldTo: null };
    case 'ProductAdvertised':
      return { ...state, advertised: true };
    case 'ProductAdvertisingRemoved':
      return { ...state, advertised: false };
    case 'ProductReported':
      return { ...state, reported: true, reporters: [...state.reporters, event.data.reporterId], reportsTaken: state.reportsTaken + 1 };
    case 'ProductReportsDismissed':
      return { ...state, reported: false, reporters: [] };
    case 'ProductRemoved':
      return { status: 'removed', listing: state.listing };
  }
}
