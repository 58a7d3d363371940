import type { Product } from '@tv-shop/contracts';
import { cardPhoto, galleryPhoto, photosOf, type PhotoSource } from './photos';

const started = new Set<string>();

/**
 * Starts fetching the photo a page will show first the moment its read answers, rather than once
 * React has drawn the cards: on a slow phone that photo is the page's largest paint, and the
 * render before it takes a while (ADR 0043). The <link> names the very srcset and sizes the
 * <img> will, so the browser picks the same file and fetches it once.
 */
function preloadPhoto({ src, srcSet, sizes }: PhotoSource): void {
  const key = srcSet ?? src;
  if (started.has(key) || typeof document === 'undefined') return;
  started.add(key);
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = src;
  if (srcSet) link.imageSrcset = srcSet;
  if (sizes) link.imageSizes = sizes;
  link.fetchPriority = 'high';
  document.head.append(link);
}

/** The first card's cover, for a list whose first card is in view when the page opens. */
export function preloadFirstCover(products: readonly Product[]): void {
  if (products[0]) preloadPhoto(cardPhoto(photosOf(products[0])[0]!));
}

/** The product page's first photo. */
export function preloadFirstPhoto(product: Product): void {
  preloadPhoto(galleryPhoto(photosOf(product)[0]!));
}
