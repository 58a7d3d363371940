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

/** The small copy of the cover: what cards and table rows show. */
export const coverThumbnail = (product: Product): string => photosOf(product)[0]!.thumbnail;
