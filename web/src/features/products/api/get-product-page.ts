import type { ProductPageAnswer } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';
import { preloadFirstPhoto } from '../preload-cover';

/** A product with its seller's profile (`seller` is null when the account is gone). */
export const getProductPage = (id: string) =>
  apiRead<ProductPageAnswer>(`/product/${encodeURIComponent(id)}`).then((answer) => {
    preloadFirstPhoto(answer.data.product);
    return answer;
  });
