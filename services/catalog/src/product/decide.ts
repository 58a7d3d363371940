import {
  bookedOnOtherTerms,
  EDITABLE_LISTING_FIELDS,
  listingPhotos,
  MAX_LISTING_PHOTOS,
  type CatalogCommand,
  type EditableListing,
  type ProductListing,
} from '@tv-shop/contracts';
import { AppError, conflict, forbidden, illegalState, notFound, validation, type Decider } from '@tv-shop/platform';
import { evolve, initialState, type ProductEvent, type ProductState } from './product';

/** Catalog's commands as they arrive over the bus (schemas in `@tv-shop/contracts`). */
export type ProductCommand = CatalogCommand;

type Listed = Extract<ProductState, { status: 'listed' }>;
const listed = (s: ProductState): Listed => {
  // Asked of a page read before it went (another admin's removal, the seller's withdrawal): said so.
  if (s.status === 'removed') throw new AppError('not_found', 'This listing was taken off TV Shop');
  if (s.status !== 'listed') throw notFound('Product');
  return s;
};
/**
 * A listing's photos: at most MAX_LISTING_PHOTOS, the cover (`imageUrl`) first, and when there
 * are thumbnails, one for each photo. Listings without `imageUrls` have the cover alone.
 */
function checkPhotos({ imageUrl, imageUrls, thumbnailUrls }: ProductListing): void {
  if (!imageUrls) {
    if (thumbnailUrls && thumbnailUrls.length !== 1) throw validation('productThumbnails', 'must hold one thumbnail for each photo');
    return;
  }
  if (imageUrls.length === 0) throw validation('productImages', 'must hold at least one photo');
  if (imageUrls.length > MAX_LISTING_PHOTOS) throw validation('productImages', `must hold at most ${MAX_LISTING_PHOTOS} photos`);
  if (imageUrls[0] !== imageUrl) throw validation('productImages', 'must start with productImage, the cover');
  if (thumbnailUrls && thumbnailUrls.length !== imageUrls.length)
    throw validation('productThumbnails', 'must hold one thumbnail for each photo');
}

/** Whatever the edge let through, a listing's prices are whole poisha, at least 1. */
function checkPrices(l: Pick<ProductListing, 'resalePricePoisha' | 'originalPricePoisha'>): void {
  for (const [field, poisha] of [
    ['resale_price', l.resalePricePoisha],
    ['orginal_price', l.originalPricePoisha],
  ] as const)
    if (!Number.isSafeInteger(poisha) || poisha < 1) throw validation(field, 'must be at least 0.01 TK');
}

/**
 * Each field of `next` that differs from the listing as it is. A listing from before several
 * photos has its one photo; thumbnails it no longer has are recorded as none (`[]`).
 */
function changesTo(listing: ProductListing, next: EditableListing): Partial<EditableListing> {
  const current: EditableListing = {
    ...listing,
    imageUrls: listingPhotos(listing),
    thumbnailUrls: listing.thumbnailUrls?.length ? listing.thumbnailUrls : undefined,
  };
  const changes: Record<string, unknown> = {};
  for (const field of EDITABLE_LISTING_FIELDS)
    if (JSON.stringify(next[field]) !== JSON.stringify(current[field])) changes[field] = next[field] ?? [];
  return changes;
}

const owned = (s: ProductState, actorId: string): Listed => {
  const l = listed(s);
  if (l.listing.sellerId !== actorId) throw forbidden('Only the seller of this product can change it');
  return l;
};

export function decide(command: ProductCommand, state: ProductState): ProductEvent[] {
  switch (command.type) {
    case 'ListProduct':
      if (state.status !== 'none') throw conflict('This product is already listed', '_id');
      checkPrices(command.data);
      checkPhotos(command.data);
      return [{ type: 'ProductListed', data: command.data }];
    case 'EditListing': {
      const s = owned(state, command.data.actorId);
      // A sale is a sale: what the buyer paid for, or what was sold elsewhere, stays as it was.
      if (s.soldTo !== null) throw illegalState('This TV was paid for by a buyer; a paid sale is final and the listing cannot be edited');
      if (s.sold) throw illegalState('A sold TV cannot be edited; make it available first if it was not sold after all');
      // As with a withdrawal: what buyers reported stays for the admin to see as they saw it.
      if (s.reported) throw illegalState('Buyers reported this listing; it cannot be edited until the admin has reviewed it');
      // The form showed the listing as it was then: an edit made since (another tab, another
      // device) would be overwritten by fields the seller never saw.
      const { seenEdits } = command.data;
      if (seenEdits !== undefined && seenEdits !== s.edits)
        throw conflict('This listing was changed elsewhere since you opened it; load it again and make your changes on it', 'edits');
      const wanted = command.data.listing;
      // Without a list of photos the cover is named alone: the others stay while it does.
      const current = listingPhotos(s.listing);
      const photos = wanted.imageUrls ?? (wanted.imageUrl === s.listing.imageUrl ? current : [wanted.imageUrl]);
      // Thumbnails not sent: each photo the listing has keeps its own, wherever it moved; with a
      // new photo among them (no thumbnail made for it) they are all shown as they are.
      const thumbnailOf = new Map(current.map((photo, i) => [photo, s.listing.thumbnailUrls?.[i]]));
      const keptThumbnails = photos.map((photo) => thumbnailOf.get(photo));
      const next: EditableListing = {
        ...wanted,
        imageUrls: photos,
        thumbnailUrls: wanted.thumbnailUrls ?? (keptThumbnails.every(Boolean) ? (keptThumbnails as string[]) : undefined),
      };
      checkPrices(next);
      checkPhotos({ ...s.listing, ...next });
      const changes = changesTo(s.listing, next);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'ProductEdited', data: { productId: s.listing.productId, changes } }];
    }
    case 'MarkProductSold': {
      const s = owned(state, command.data.actorId);
      if (s.sold) throw illegalState('The product is already sold');
      return [{ type: 'ProductMarkedSold', data: { productId: s.listing.productId } }];
    }
    case 'MarkProductAvailable': {
      const s = owned(state, command.data.actorId);
      if (!s.sold) throw illegalState('The product is already available');
      // Money changed hands here: making it available again would let a second buyer pay for it.
      if (s.soldTo !== null) throw illegalState('This TV was paid for by a buyer; a paid sale is final and cannot be undone');
      return [{ type: 'ProductMarkedAvailable', data: { productId: s.listing.productId } }];
    }
    case 'AdvertiseProduct': {
      const s = owned(state, command.data.actorId);
      if (s.sold) throw illegalState('A sold product cannot be advertised');
      if (s.advertised) throw illegalState('The product is already advertised');
      // Not put in the home page's spotlight while buyers' reports of it wait for the admin (ADR 0077).
      if (s.reported) throw illegalState('Buyers reported this listing; it cannot be advertised until the admin has reviewed it');
      return [{ type: 'ProductAdvertised', data: { productId: s.listing.productId } }];
    }
    case 'RemoveAdvertising': {
      const s = owned(state, command.data.actorId);
      if (!s.advertised) throw illegalState('The product is not advertised');
      return [{ type: 'ProductAdvertisingRemoved', data: { productId: s.listing.productId } }];
    }
    case 'ReportProduct': {
      const s = listed(state);
      if (s.listing.sellerId === command.data.actorId) throw forbidden('You cannot report your own product');
      const { actorId, actorName, reason } = command.data;
      if (s.reporters.includes(actorId)) throw illegalState('You have already reported this product');
      return [{ type: 'ProductReported', data: { productId: s.listing.productId, reporterId: actorId, reporterName: actorName, reason } }];
    }
    case 'DismissReports': {
      const s = listed(state);
      if (!s.reported) throw illegalState('This product has no reports to dismiss');
      const { seen, seenTaken } = command.data;
      // `seenTaken` counts every report the listing ever had, so it tells a new report from one
      // dismissed meanwhile (by another admin, or another tab), which `seen` cannot.
      if ((seen !== undefined && s.reporters.length > seen) || (seenTaken !== undefined && s.reportsTaken > seenTaken))
        throw conflict('More reports of this product came in since you looked; look at them again before dismissing', 'reports');
      return [{ type: 'ProductReportsDismissed', data: { productId: s.listing.productId, reports: s.reporters.length } }];
    }
    case 'RemoveProduct': {
      if (command.data.reason === 'withdrawn') {
        // The seller takes their own TV off sale. A paid sale is final (ADR 0010): the buyer's
        // order points at it, so it stays, as Make Available is refused for it.
        const s = owned(state, command.data.actorId);
        if (s.soldTo !== null) throw illegalState('This TV was paid for by a buyer; a paid sale is final and cannot be withdrawn');
        // A withdrawal would take the buyers' reports off the admin's Reported Items with it.
        if (s.reported) throw illegalState('Buyers reported this listing; it stays until the admin has reviewed it');
        return [{ type: 'ProductRemoved', data: { productId: s.listing.productId, reason: 'withdrawn' } }];
      }
      const s = listed(state);
      if (command.data.reason === 'admin') {
        // Removal cannot be undone: not on a question whose facts changed since the admin read it
        // (another admin dismissed the reports, or a buyer paid), as a dismissal is not (ADR 0056).
        const { seenReported, seenPaid } = command.data;
        if (seenReported && !s.reported) throw conflict('Its reports were dismissed since you looked, so it stays in the shop', 'reports');
        if (seenPaid === false && s.soldTo !== null)
          throw conflict('A buyer paid for this TV since you looked; look at it again before removing it', 'paid_sale');
      }
      // A closed account's sold TVs stay (a buyer's order, or the seller's record of the sale,
      // points at them): one sold between the policy's read and this command is left as it is.
      if (command.data.reason === 'seller-deleted' && s.sold) return [];
      // An admin removing a product someone reported removes it for the report; the seller's
      // account deletion stays the reason when that is what asks.
      const reason = command.data.reason === 'seller-deleted' ? 'seller-deleted' : s.reported ? 'reported' : 'admin';
      return [{ type: 'ProductRemoved', data: { productId: s.listing.productId, reason } }];
    }
    case 'RecordSale': {
      const s = listed(state);
      if (s.sold && s.soldTo === command.data.bookingId) return [];
      if (s.sold) throw illegalState('This product has already been sold', 'product_id');
      const { bookingId, buyerName } = command.data;
      // Booked before its seller changed its terms: not sold on the old ones (ADR 0057, 0058, 0073).
      if (bookedOnOtherTerms(command.data, s)) throw illegalState('The seller changed this listing after it was booked', 'listing');
      return [{ type: 'ProductMarkedSold', data: { productId: s.listing.productId, bookingId, buyerName } }];
    }
    default: {
      const unknown: never = command;
      throw validation('type', `is not a catalog command: ${(unknown as { type: unknown }).type as string}`);
    }
  }
}

export const productDecider: Decider<ProductCommand, ProductEvent, ProductState> = { initialState, evolve, decide };
