import { changesTerms, ID_PATTERN, listingPhotos, photosAfter, streams, type EventOf, type ProductListing } from '@tv-shop/contracts';
import type { EventStore } from '@tv-shop/platform';
import type { ProductFacts } from './decide';

/**
 * Why a booking of a sold TV is cancelled, by whom it was sold: to another booking here
 * (`product-sold`), or by its seller, elsewhere (`product-marked-sold`, no booking named).
 */
export const soldReason = (soldTo: string | null | undefined) => (soldTo ? 'product-sold' : 'product-marked-sold');

/**
 * Folds the product's own stream (the catalog's published events) into what a booking needs:
 * all of it, or (`before`, a log position) as it was just before an event of it.
 */
export async function loadProductFacts(store: EventStore, productId: string, before?: number): Promise<ProductFacts> {
  const facts: ProductFacts = {
    exists: false,
    removed: false,
    sold: false,
    soldTo: null,
    name: '',
    image: '',
    thumbnail: '',
    pricePoisha: 0,
    sellerId: '',
    edits: 0,
    terms: 0,
    termsEdit: 0,
    photos: [],
  };
  if (!ID_PATTERN.test(productId)) return facts;
  // The photos and their thumbnails, in the same order (none: `[]`), to find the cover's thumbnail.
  let photos: string[] = [];
  let thumbnails: string[] = [];
  for (const e of await store.readStream(streams.product(productId))) {
    if (before !== undefined && e.position >= before) break;
    if (e.type === 'ProductListed') {
      const l = e.data as ProductListing;
      Object.assign(facts, { exists: true, name: l.name, image: l.imageUrl, pricePoisha: l.resalePricePoisha, sellerId: l.sellerId });
      photos = listingPhotos(l);
      thumbnails = l.thumbnailUrls ?? [];
    } else if (e.type === 'ProductEdited') {
      // A booking placed from now on is placed at the listing as it is now.
      const { changes } = e.data as EventOf<'ProductEdited'>['data'];
      const { name, imageUrl, thumbnailUrls, resalePricePoisha } = changes;
      if (changesTerms(photos, changes)) {
        facts.terms++;
        facts.termsEdit = facts.edits + 1;
      }
      if (name !== undefined) facts.name = name;
      if (imageUrl !== undefined) facts.image = imageUrl;
      photos = [...photosAfter(photos, changes)];
      if (thumbnailUrls !== undefined) thumbnails = thumbnailUrls;
      if (resalePricePoisha !== undefined) facts.pricePoisha = resalePricePoisha;
      facts.edits++;
    } else if (e.type === 'ProductMarkedSold') {
      facts.sold = true;
      facts.soldTo = (e.data as { bookingId?: string }).bookingId ?? null;
    } else if (e.type === 'ProductMarkedAvailable') {
      facts.sold = false;
      facts.soldTo = null;
    } else if (e.type === 'ProductRemoved') facts.removed = true;
  }
  // A thumbnail stands for the cover only while the two lists match, photo for photo.
  facts.thumbnail = photos[0] === facts.image && thumbnails.length === photos.length ? (thumbnails[0] ?? '') : '';
  facts.photos = photos;
  return facts;
}
