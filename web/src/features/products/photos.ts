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

/** A photo as an <img> shows it: the small copy on a narrow screen, the photo where more pixels are needed. */
export interface PhotoSource {
  src: string;
  srcSet?: string;
  sizes?: string;
}

/** The card's width at each layout of the grid (styles.css: one column, two from 768 px, three from 992 px). */
const CARD_SIZES = '(min-width: 992px) 360px, (min-width: 768px) 50vw, 100vw';

/** A card's cover: the small copy, or the photo where the screen needs more pixels than it has. */
export const cardPhoto = (photo: ProductPhoto): PhotoSource =>
  photo.thumbnail !== photo.url
    ? { src: photo.thumbnail, srcSet: `${photo.thumbnail} ${THUMBNAIL_WIDTH}w, ${photo.url} ${PHOTO_WIDTH}w`, sizes: CARD_SIZES }
    : { src: photo.thumbnail };
/**
 * A photo in the product page's gallery: the photo itself, sharp at any width (the small copy
 * would be chosen by a browser for a laptop's 768 px and look soft where a buyer inspects a TV).
 */
export const galleryPhoto = (photo: ProductPhoto): PhotoSource => ({ src: photo.url });
