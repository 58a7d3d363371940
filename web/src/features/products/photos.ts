import type { Product } from '@tv-shop/contracts';

export interface ProductPhoto {
  /** The photo (longest side at most 2,560 px). */
  url: string;
  /** Its small copy for cards and lists; the photo itself when it has none. */
  thumbnail: string;
}

/**
 * A product's photos in order, the cover first. A product from a server that predates several
 * photos (a cached answer, a rolling deploy) carries productImage alone: that is its one photo.
 */
export function photosOf(product: Product): ProductPhoto[] {
  const { productImage, productImages, productThumbnails } = product as Partial<Product> & { productImage: string };
  const urls = productImages?.length ? productImages : [productImage];
  return urls.map((url, i) => ({ url, thumbnail: productThumbnails?.[i] ?? url }));
}

/** The longest side of a thumbnail (packages/images: THUMBNAIL_SIDE): its width for `srcset`. */
export const THUMBNAIL_WIDTH = 720;
/** The longest side of an uploaded photo (packages/images: MAX_IMAGE_SIDE): its width at most. */
export const PHOTO_WIDTH = 2560;
/** The card's photo box is 16:10: the intrinsic size a card's <img> declares, so nothing shifts. */
export const CARD_PHOTO = { width: 720, height: 450 } as const;

/** The small copy of the cover: what cards and table rows show. */
export const coverThumbnail = (product: Product): string => photosOf(product)[0]!.thumbnail;
