import type { Product } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { selectAtom } from 'jotai/utils';
import { useMemo, useState } from 'react';
import { useWatchView } from '@/lib/use-live-list';
import { productsStore } from './atoms';

/**
 * The TV a buyer chose to book, kept live for its dialog (ADR 0071): as pushes change it in this
 * browser's store, or as it was chosen once the store no longer has it. While it is chosen the
 * socket also hears the TV's own view, so a page that lists only some TVs (for sale, advertised,
 * matching a search) cannot leave the dialog deaf: a sale arrives as the TV sold, an edit as the
 * TV edited. `left` says the store held it and no longer does (a removal, or a list read again
 * without it), for the dialog to learn why; `at` is the log position this tab knows the TV at
 * (kept after it left), so a read older than that is known to be behind. Only a change of this
 * one TV renders the page again, not every push.
 */
export function useChosenProduct() {
  const [chosen, choose] = useState<Product | null>(null);
  const id = chosen?._id;
  useWatchView(useMemo(() => (id ? { kind: 'product' as const, id } : null), [id]));
  const live = useAtomValue(useMemo(() => selectAtom(productsStore.stateAtom, (s) => (id ? s.rows.get(id) : undefined)), [id]));
  const at = useAtomValue(useMemo(() => selectAtom(productsStore.stateAtom, (s) => (id ? (s.positions.get(id) ?? null) : null)), [id]));
  // Known to the store (it keeps a row's position after removing it) and no longer held.
  return {
    choose,
    dialog: { product: chosen && (live ?? chosen), left: !!id && !live && at !== null, at, onClose: () => choose(null) },
  };
}
