import { preloadFirstPhoto } from '../preload-cover';
import { readProductPage } from './read-product-page';

/**
 * The product page's read: its first full-size photo is fetched the moment the read answers
 * (the edit form, which shows thumbnails, reads with `readProductPage` and loads none of this).
 */
export const getProductPage = (id: string) =>
  readProductPage(id).then((answer) => {
    preloadFirstPhoto(answer.data.product);
    return answer;
  });
