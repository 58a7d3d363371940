import type { Product } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useMemo, useRef } from 'react';
import { productsStore } from './atoms';

/** A list as the server read it: its rows' ids, and the log position it was read at. */
export interface ReadList {
  ids: readonly string[];
  readAt: number;
}

/**
 * Listings not in `read` that `matches` takes and that changed after `read` was read (they reach
 * the store by push), newest first: listed since, or an older listing that came into the list
 * since (for sale again, edited into its brand or price), which nothing else would bring back.
 * A row the store holds as of the read or before stays where the server put it (a later page).
 * `read` and `matches` must be stable (the same objects until the list or its rule changes). One
 * pushed row patches the list in O(its length) rather than a look through the whole store.
 */
export function useNewlyListed(read: ReadList | null, matches: (p: Product) => boolean): Product[] {
  const state = useAtomValue(productsStore.stateAtom);
  const last = useRef<{ read: ReadList | null; matches: (p: Product) => boolean; version: number; joined: Product[] } | null>(null);
  const held = useMemo(() => new Set(read?.ids), [read]);
  return useMemo(() => {
    if (!read) return [];
    const joins = (id: string, row: Product | undefined): row is Product =>
      // Changed since the read: a row listed since holds a position at or past its listing.
      row !== undefined && !held.has(id) && (state.positions.get(id) ?? -Infinity) > read.readAt && matches(row);
    const prev = last.current;
    let joined: Product[];
    if (prev && prev.read === read && prev.matches === matches && state.changed !== null && state.version === prev.version + 1) {
      const id = state.changed;
      const row = state.rows.get(id);
      joined = prev.joined.filter((p) => p._id !== id);
      if (joins(id, row)) {
        const at = joined.findIndex((p) => p.listedAt < row.listedAt);
        joined.splice(at === -1 ? joined.length : at, 0, row);
      } else if (joined.length === prev.joined.length) joined = prev.joined;
    } else {
      joined = [];
      for (const [id, row] of state.rows) if (joins(id, row)) joined.push(row);
      joined.sort((a, b) => b.listedAt - a.listedAt);
    }
    last.current = { read, matches, version: state.version, joined };
    return joined;
  }, [read, held, state, matches]);
}
