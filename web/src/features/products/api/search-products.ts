import type { ProductSearchAnswer } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';
import { preloadFirstCover } from '../preload-cover';

/** One page of a search; the answer's `position` (or the X-Position header) dates its rows. */
export async function searchProducts(query: Record<string, string>): Promise<ProductSearchAnswer> {
  const { data, position } = await apiRead<ProductSearchAnswer>('/products/search', { query });
  // The first page's first card is in view when the page opens.
  if (!query.cursor) preloadFirstCover(data.items);
  return { ...data, position: Number.isFinite(data.position) ? data.position : position };
}
