import type { Product } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { selectAtom } from 'jotai/utils';
import { useMemo, useState } from 'react';
import { productsStore } from './atoms';

/**
 * The TV a buyer chose to book, kept live: as pushes change it in this browser's store (the page
 * that offered it hears its changes), or as it was chosen once the store no longer has it. Only
 * a change of this one TV renders the page again, not every push.
 */
export function useChosenProduct() {
  const [chosen, choose] = useState<Product | null>(null);
  const id = chosen?._id;
  const live = useAtomValue(useMemo(() => selectAtom(productsStore.stateAtom, (s) => (id ? s.rows.get(id) : undefined)), [id]));
  return [chosen && (live ?? chosen), choose] as const;
}
