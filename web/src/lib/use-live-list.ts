import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useMemo, useRef } from 'react';
import type { Positioned } from './api-client';
import type { EntityStore, Keyed } from './entity-store';
import { noteListRead } from './live-socket';
import { useLoad } from './use-load';

/** Bumped when the server can no longer replay what this tab missed: every open list reads again. */
export const listsReloadAtom = atom(0);

/**
 * Reads one server list into an entity store, then shows the store through `scope`, so pushes
 * change the page without a refetch. `fetchList` and `scope` must be stable (module functions,
 * or useCallback/useMemo on the values they close over): a new one means a new list.
 */
export function useLiveList<T extends Keyed>(store: EntityStore<T>, fetchList: () => Promise<Positioned<T[]>>, scope: (row: T) => boolean) {
  const loadIntoStore = useSetAtom(store.loadAtom);
  const reload = useAtomValue(listsReloadAtom);
  const load = useCallback(async () => {
    const { data, position } = await fetchList();
    loadIntoStore({ rows: data, position, inScope: scope });
    noteListRead(position);
  }, [fetchList, scope, loadIntoStore]);
  const { rows } = useAtomValue(store.stateAtom);
  const items = useMemo(() => [...rows.values()].filter(scope), [rows, scope]);
  // Rows of this list another read brought in (the page was open before): a failed read keeps
  // showing them, with a notice, rather than an error in their place.
  const shown = useRef(items.length > 0);
  shown.current = items.length > 0;
  const state = useLoad(load, reload, { hasData: () => shown.current });
  return { items, ...state };
}
