import type { Product } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { selectAtom } from 'jotai/utils';
import { useMemo, useState } from 'react';
import { productsStore } from './atoms';

/**
 * The TV a buyer chose to book, kept live for its dialog: as pushes change it in this browser's
 * store (the page that offered it hears its changes), or as it was chosen once the store no longer
 * has it. `left` says it had been in the store and is no longer: a list that shows only TVs for
 * sale hears a sale or a removal as the row leaving it, so the dialog reads the listing again to
 * learn why (ADR 0071). Only a change of this one TV renders the page again, not every push.
 */
export function useChosenProduct() {
  const [chosen, choose] = useState<Product | null>(null);
  const id = chosen?._id;
  const live = useAtomValue(useMemo(() => selectAtom(productsStore.stateAtom, (s) => (id ? s.rows.get(id) : undefined)), [id]));
  // The last chosen TV the store was seen holding (state derived while rendering, as React advises).
  const [held, setHeld] = useState<string | undefined>();
  if (live && held !== id) setHeld(id);
  return {
    choose,
    dialog: { product: chosen && (live ?? chosen), left: !!id && !live && held === id, onClose: () => choose(null) },
  };
}
