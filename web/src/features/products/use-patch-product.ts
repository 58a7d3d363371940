import type { Product, WriteAnswer } from '@tv-shop/contracts';
import { useAtomCallback } from 'jotai/utils';
import { useCallback } from 'react';
import { productsStore, reportedProductsStore } from './atoms';

/**
 * Applies a successful product write at once (see the entity store's patch); a removal, or its
 * reports dismissed, takes it off Reported Items too.
 */
export function usePatchProduct() {
  return useAtomCallback(
    useCallback((_get, set, id: string, answer: WriteAnswer, patch: Partial<Product> | 'remove') => {
      set(productsStore.patchAtom, id, answer.position, patch);
      if (patch === 'remove' || patch.reported === false) set(reportedProductsStore.patchAtom, id, answer.position, 'remove');
    }, []),
  );
}
