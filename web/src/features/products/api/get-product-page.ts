import type { ProductPageAnswer } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';
import { preloadFirstPhoto } from '../preload-cover';

/**
 * A product with its seller's profile (`seller` is null when the account is gone). `withPhoto`:
 * its first full-size photo is fetched at once (the product page shows it; the edit form shows
 * thumbnails).
 */
export const getProductPage = (id: string, withPhoto = true) =>
  apiRead<ProductPageAnswer>(`/product/${encodeURIComponent(id)}`).then((answer) => {
    if (withPhoto) preloadFirstPhoto(answer.data.product);
    return answer;
  });
