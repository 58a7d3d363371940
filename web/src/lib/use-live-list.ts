import type { View } from '@tv-shop/contracts';
import { viewKey } from '@tv-shop/contracts';
import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { Positioned } from './api-client';
import type { EntityState, EntityStore, Keyed } from './entity-store';
import { noteListRead, watchView } from './live-socket';
import { useLoad } from './use-load';

/** Bumped when the server can no longer replay what this tab missed: every open list reads again. */
export const listsReloadAtom = atom(0);

/**
 * Subscribes the tab's socket to `view` while the calling component is mounted (ADR 0045): the
 * server then sends it that view's changes, and no others'. Null: nothing to subscribe (yet).
 */
export function useWatchView(view: View | null): void {
  const key = view ? viewKey(view) : null;
  // The view as of its key: a new object with the same meaning is the same subscription.
  const stable = useMemo(() => view, [key]);
  useEffect(() => (stable ? watchView(stable) : undefined), [stable]);
}

/**
 * A list's rows, kept up to date from the store: a push (one changed row) patches the previous
 * list in place of filtering the whole store again; a load, or several changes at once, filters.
 */
function useScoped<T extends Keyed>(state: EntityState<T>, scope: (row: T) => boolean): T[] {
  const last = useRef<{ state: EntityState<T>; scope: (row: T) => boolean; items: T[] } | null>(null);
  return useMemo(() => {
    const prev = last.current;
    let items: T[] | null = null;
    if (prev && prev.scope === scope && state.changed !== null && state.version === prev.state.version + 1) {
      items = patch(prev.items, state, state.changed, scope);
    }
    items ??= [...state.rows.values()].filter(scope);
    last.current = { state, scope, items };
    return items;
  }, [state, scope]);
}

/** The list after one row changed: replaced where it was, dropped, or (new to the store) put first or last; null when it cannot tell where. */
function patch<T extends Keyed>(items: T[], state: EntityState<T>, id: string, scope: (row: T) => boolean): T[] | null {
  const row = state.rows.get(id);
  const at = items.findIndex((r) => r._id === id);
  const belongs = row !== undefined && scope(row);
  if (at >= 0) {
    if (!belongs) return items.filter((_, i) => i !== at);
    const next = items.slice();
    next[at] = row;
    return next;
  }
  if (!belongs) return items;
  // A row new to the store goes on top of it or at its bottom; one the store had (it now falls in
  // scope) needs its place found.
  if (state.rows.end('top') === id) return [row, ...items];
  if (state.rows.end('bottom') === id) return [...items, row];
  return null;
}

/**
 * Reads one server list into an entity store, then shows the store through `scope`, so pushes
 * change the page without a refetch. `fetchList` and `scope` must be stable (module functions,
 * or useCallback/useMemo on the values they close over): a new one means a new list. `view` is
 * what the list shows, for the server to send its changes (ADR 0045).
 */
export function useLiveList<T extends Keyed>(
  store: EntityStore<T>,
  fetchList: () => Promise<Positioned<T[]>>,
  scope: (row: T) => boolean,
  view: View | null = null,
) {
  useWatchView(view);
  const loadIntoStore = useSetAtom(store.loadAtom);
  const reload = useAtomValue(listsReloadAtom);
  const key = view ? viewKey(view) : null;
  const load = useCallback(async () => {
    const { data, position } = await fetchList();
    loadIntoStore({ rows: data, position, inScope: scope });
    noteListRead(position, view ?? undefined);
  }, [fetchList, scope, loadIntoStore, key]);
  const state = useAtomValue(store.stateAtom);
  const items = useScoped(state, scope);
  // Rows of this list another read brought in (the page was open before): a failed read keeps
  // showing them, with a notice, rather than an error in their place.
  const shown = useRef(items.length > 0);
  shown.current = items.length > 0;
  const loaded = useLoad(load, reload, { hasData: () => shown.current });
  return { items, ...loaded };
}
