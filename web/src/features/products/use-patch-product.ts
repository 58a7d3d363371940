import type { Product, WriteAnswer } from '@tv-shop/contracts';
import { useAtomCallback } from 'jotai/utils';
import { useCallback } from 'react';
import { productsStore, reportedProductsStore } from './atoms';

/**
 * Applies a successful write to the store at once. It sits just below the write's position so
 * the server's own push for that write still lands, while any older push is ignored.
 */
export function usePatchProduct() {
  return useAtomCallback(
    useCallback((get, set, id: string, answer: WriteAnswer, patch: Partial<Product> | 'remove') => {
      const position = answer.position - 0.5;
      if (patch === 'remove') {
        set(productsStore.applyAtom, { op: 'remove', id, position });
        set(reportedProductsStore.applyAtom, { op: 'remove', id, position });
        return;
      }
      const row = get(productsStore.stateAtom).rows.get(id);
      if (row) set(productsStore.applyAtom, { op: 'upsert', id, row: { ...row, ...patch }, position });
    }, []),
  );
}
