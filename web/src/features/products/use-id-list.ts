import type { Product } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { productsStore } from './atoms';

/**
 * Shows a list the server ordered (a search, a seller's listings) through the product store:
 * each id's current row, so pushes change a shown item in place and a removed one disappears.
 * `keep` drops rows that no longer belong (a search's sold filter); it must be stable.
 */
export function useIdList(ids: readonly string[], keep: (p: Product) => boolean) {
  const { rows } = useAtomValue(productsStore.stateAtom);
  return useMemo(() => {
    const items: Product[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      if (row && keep(row)) items.push(row);
    }
    return items;
  }, [ids, rows, keep]);
}
