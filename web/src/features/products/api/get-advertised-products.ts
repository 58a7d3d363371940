import type { Product } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';
import { productScopes } from '../atoms';
import { preloadFirstCover } from '../preload-cover';
import { useProductList } from '../use-product-list';

/** The home page's first section: its first card's photo is fetched as soon as the list is in. */
export const getAdvertisedProducts = () =>
  apiRead<Product[]>('/advertise_products').then((answer) => {
    preloadFirstCover(answer.data);
    return answer;
  });

const ADVERTISED = { kind: 'advertised' } as const;

export const useAdvertisedProducts = () => useProductList(getAdvertisedProducts, productScopes.advertised, ADVERTISED);
