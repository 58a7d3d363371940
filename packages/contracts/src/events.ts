import type { Condition, Role } from './entities';
import { removedReasonText } from './removed';

/**
 * The published events: what happened in the marketplace, in its own words.
 * Money is in poisha (1 TK = 100 poisha). Times are ISO-8601 strings, never Date objects.
 * A type's `schemaVersion` changes only together with an upcaster.
 */
export type IdentityEvent =
  | {
      type: 'UserRegistered';
      data: {
        userId: string;
        name: string;
        email: string;
        photoURL: string;
        role: Role;
        passwordHash: string | null;
        via: 'password' | 'google' | 'bootstrap';
      };
    }
  | { type: 'UserProfileUpdated'; data: { userId: string; name: string; photoURL: string } }
  | { type: 'PasswordChanged'; data: { userId: string; passwordHash: string } }
  /** Every session of the account ended (ADR 0062): tokens issued before it stop working. */
  | { type: 'SessionsEnded'; data: { userId: string } }
  /** One session signed out (Log Out, ADR 0066): the tokens of that sign-in stop working, its refreshes too. */
  | { type: 'SignedOut'; data: { userId: string; sessionId: string } }
  | { type: 'SellerVerified'; data: { userId: string } }
  | { type: 'UserDeleted'; data: { userId: string; email: string; role: Role } };

export interface ProductListing {
  productId: string;
  name: string;
  /** The cover photo, always the first of `imageUrls`. */
  imageUrl: string;
  /** Every photo in order; added later: a listing without it has the one photo, `imageUrl`. */
  imageUrls?: string[];
  /** A thumbnail of each of `imageUrls`, in the same order; added later, and absent when the seller sent none. */
  thumbnailUrls?: string[];
  details: string;
  location: string;
  resalePricePoisha: number;
  originalPricePoisha: number;
  useDuration: string;
  condition: Condition;
  phone: string;
  categoryId: string;
  categoryName: string;
  sellerId: string;
  sellerName: string;
  sellerEmail: string;
  postedOn: string; // d-m-yyyy, as the spec shows it
}

/** What a seller may change of a listing after it is posted: not who sells it, nor when it was posted. */
export const EDITABLE_LISTING_FIELDS = [
  'name',
  'imageUrl',
  'imageUrls',
  'thumbnailUrls',
  'details',
  'location',
  'resalePricePoisha',
  'originalPricePoisha',
  'useDuration',
  'condition',
  'phone',
  'categoryId',
  'categoryName',
] as const satisfies readonly (keyof ProductListing)[];
export type EditableListing = Pick<ProductListing, (typeof EDITABLE_LISTING_FIELDS)[number]>;

/**
 * Whether an edit changes the terms a booking is placed at (ADR 0073): any change but a new order
 * of the same photos (another of them as the cover, their thumbnails with them). A seller putting
 * the best photo first has not changed the TV a buyer booked. `photosBefore`: the listing's photos
 * before the edit (a listing from before several photos has the cover alone).
 */
export function changesTerms(photosBefore: readonly string[], changes: Partial<EditableListing>): boolean {
  if (Object.keys(changes).some((field) => field !== 'imageUrl' && field !== 'imageUrls' && field !== 'thumbnailUrls')) return true;
  const sorted = (photos: readonly string[]) => JSON.stringify([...photos].sort());
  return sorted(photosAfter(photosBefore, changes)) !== sorted(photosBefore);
}

/** A listing's photos in order, the cover first: one from before several photos has the cover alone. */
export const listingPhotos = (l: Pick<ProductListing, 'imageUrl' | 'imageUrls'>): string[] => l.imageUrls ?? [l.imageUrl];

/**
 * A listing's photos after an edit, in order. An edit that names the cover alone (`imageUrl`
 * without `imageUrls`) is from before several photos, when a listing had that one: catalog and
 * orders both fold photos with this, so their counts of terms agree.
 */
export const photosAfter = (photosBefore: readonly string[], changes: Partial<EditableListing>): readonly string[] =>
  changes.imageUrls ?? (changes.imageUrl === undefined ? photosBefore : [changes.imageUrl]);

/**
 * Whether a booking (its BookingPlaced's counts) was placed on other terms than the listing has
 * now: another count of terms, or, in a booking placed before terms were counted, of edits.
 */
export const bookedOnOtherTerms = (
  booking: { listingEdits?: number | undefined; listingTerms?: number | undefined },
  listing: { edits: number; terms: number },
): boolean =>
  booking.listingTerms !== undefined
    ? booking.listingTerms !== listing.terms
    : booking.listingEdits !== undefined && booking.listingEdits !== listing.edits;

export type CatalogEvent =
  | { type: 'ProductListed'; data: ProductListing }
  /**
   * The seller changed their listing: `changes` holds each field that changed, as it is now
   * (ADR 0057). A booking already placed keeps the name, photo and price it was placed at.
   */
  | { type: 'ProductEdited'; data: { productId: string; changes: Partial<EditableListing> } }
  /**
   * With a `bookingId` the TV was paid for through TV Shop (catalog's RecordSale): that sale is
   * final. Without one the seller says it was sold elsewhere, which they may take back.
   */
  | { type: 'ProductMarkedSold'; data: { productId: string; bookingId?: string; buyerName?: string } }
  | { type: 'ProductMarkedAvailable'; data: { productId: string } }
  | { type: 'ProductAdvertised'; data: { productId: string } }
  | { type: 'ProductAdvertisingRemoved'; data: { productId: string } }
  /** `reporterName` and `reason` were added later; older events have neither. */
  | { type: 'ProductReported'; data: { productId: string; reporterId: string; reporterName?: string; reason?: string } }
  /**
   * The admin looked at a reported TV and keeps it in the shop: its reports are set aside (they
   * stay in the log), it is no longer marked reported, and any buyer may report it again.
   */
  | { type: 'ProductReportsDismissed'; data: { productId: string; reports: number } }
  | { type: 'ProductRemoved'; data: { productId: string; reason: 'reported' | 'seller-deleted' | 'admin' | 'withdrawn' } }
  | { type: 'CategoryAdded'; data: { categoryId: string; category_name: string; name: string; bgColor: string; color: string } }
  | { type: 'BlogPublished'; data: { blogId: string; ques: string; paragraphs: string[] } }
  | SellerListingsEvent;

/**
 * A seller's listing slots (stream `seller_listings-<sellerId>`, ADR 0035): a TV for sale holds
 * one; `listed` ones also count toward the hour's new listings. `at` is when it was taken.
 */
export type SellerListingsEvent =
  | {
      type: 'ListingSlotTaken';
      /** `existing`: held with no limit checked (a TV for sale from before the limits, or listed by the admin or the shop). */
      data: { sellerId: string; productId: string; at: string; reason: 'listed' | 'available-again' | 'existing' };
    }
  | { type: 'ListingSlotFreed'; data: { sellerId: string; productId: string; reason: 'sold' | 'removed' | 'not-for-sale' } };

export type OrdersEvent =
  | {
      type: 'BookingPlaced';
      data: {
        bookingId: string;
        productId: string;
        productName: string;
        productImage: string;
        /**
         * The small copy of `productImage` the listing had (its cover's thumbnail), for lists.
         * Absent when it had none, and in bookings placed before it was kept.
         */
        productThumbnail?: string;
        pricePoisha: number;
        buyerId: string;
        buyerName: string;
        buyerEmail: string;
        phone: string;
        meetingLocation: string;
        /**
         * How many times its seller had edited the listing when this placing was made (absent in
         * bookings placed before it was kept). A booking without `listingTerms` is sold only while
         * the listing has had no edit since (ADR 0058).
         */
        listingEdits?: number;
        /**
         * How many of those edits changed its terms (`changesTerms`): the terms it was booked at.
         * Its sale is refused once the listing's terms changed since, not when its photos were
         * only put in another order (ADR 0073). Absent in bookings placed before it was kept.
         */
        listingTerms?: number;
      };
    }
  | {
      type: 'PaymentIntentCreated';
      data: { bookingId: string; paymentIntentId: string; provider: string; amountPoisha: number; currency: string };
    }
  | {
      /**
       * The provider confirmed a payment of the open booking, and the shop is recording its sale
       * (ADR 0058): from here the booking's buyer can no longer cancel it; the sale decides.
       */
      type: 'PaymentReceived';
      data: { bookingId: string; paymentIntentId: string };
    }
  | {
      type: 'BookingPaid';
      data: { bookingId: string; productId: string; buyerId: string; paymentIntentId: string; amountPoisha: number; provider: string };
    }
  | {
      type: 'BookingCancelled';
      /**
       * product-sold: bought by another booking; product-marked-sold: its seller marked it sold
       * (elsewhere, no payment here); product-removed: withdrawn or removed; listing-edited: its
       * seller changed the listing after it was booked (the buyer may book it again as it is now;
       * ADR 0057); buyer-cancelled: the buyer called it off before paying (ADR 0058); buyer-deleted.
       */
      data: {
        bookingId: string;
        productId: string;
        reason: 'product-sold' | 'product-marked-sold' | 'product-removed' | 'listing-edited' | 'buyer-cancelled' | 'buyer-deleted';
      };
    }
  | {
      type: 'PaymentRefunded';
      data: {
        bookingId: string;
        paymentIntentId: string;
        amountPoisha: number;
        reason: 'product-unavailable';
        /**
         * Which placing of the booking the refunded payment was for, counted from 1 (ADR 0063): the
         * one the payment workflow saw it paying, or the shop took it in (PaymentReceived), else
         * the latest the intent could have paid (at its amount, from the placing it was made in,
         * before a later intent at that amount). A refund that comes after the TV was booked again
         * belongs to the cancelled placing it paid for, not to the new one. Absent in events from
         * before it was recorded: the booking's own row (its latest placing then).
         */
        ofPlacing?: number;
      };
    };

export type CancelReason = EventOf<'BookingCancelled'>['data']['reason'];

/**
 * How many times a buyer may call off their booking of one TV and still book it again (ADR 0076):
 * each placing stays a row in the seller's bookings and is pushed to them.
 */
export const MAX_OWN_CANCELLATIONS = 5;

/**
 * Why a booking was cancelled, in the words My Orders (the buyer's) and My Buyers (the seller's)
 * show. The web app compares with them too (a buyer's own cancellation needs no warning toast).
 */
export const CANCEL_REASON_TEXT: Record<CancelReason, string> = {
  'product-sold': 'sold to another buyer',
  'product-marked-sold': 'the seller marked it sold',
  'product-removed': 'listing removed',
  'listing-edited': 'the seller changed the listing; book it again if you still want it',
  'buyer-cancelled': 'cancelled by the buyer',
  'buyer-deleted': 'account deleted',
};

/**
 * A booking's cancellation in words: CANCEL_REASON_TEXT's (an unknown reason as it is), and for
 * a listing's removal who took it off, when known (`removedAs`: ProductRemoved's reason), in the
 * words the listing's own page uses: "listing removed: its seller took it off TV Shop".
 */
export function cancelReasonText(reason: string, removedAs?: string | null): string {
  const text = (CANCEL_REASON_TEXT as Record<string, string | undefined>)[reason] ?? reason;
  return reason === 'product-removed' && removedAs ? `${text}: ${removedReasonText(removedAs)}` : text;
}

export type DomainEvent = IdentityEvent | CatalogEvent | OrdersEvent;
export type DomainEventType = DomainEvent['type'];
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** Stream names: `<category>-<id>`; the category says which service owns it. */
export const streams = {
  user: (id: string) => `user-${id}`,
  product: (id: string) => `product-${id}`,
  booking: (id: string) => `booking-${id}`,
  category: (id: string) => `category-${id}`,
  blog: (id: string) => `blog-${id}`,
  sellerListings: (sellerId: string) => `seller_listings-${sellerId}`,
} as const;
