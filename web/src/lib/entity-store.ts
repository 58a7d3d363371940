import { atom } from 'jotai';

export interface Keyed {
  _id: string;
}

/** One change to a row: a live push, or a write answer applied optimistically. */
export type EntityChange<T> = { op: 'upsert'; id: string; row: T; position: number } | { op: 'remove'; id: string; position: number };

export interface EntityState<T> {
  /** Insertion order is display order. */
  rows: ReadonlyMap<string, T>;
  /** The log position each row reflects, kept after a remove so stale data cannot revive it. */
  positions: ReadonlyMap<string, number>;
}

/** A fetched list: its rows, the log position it reflects (`X-Position`), and which rows it answers for. */
export interface EntityLoad<T> {
  rows: T[];
  position: number;
  inScope: (row: T) => boolean;
}

/**
 * A client-side table of one entity, patched in place by pushes instead of refetching.
 * Lists on screen are filters over it (my products, reported items, a category...).
 */
export function createEntityStore<T extends Keyed>() {
  const stateAtom = atom<EntityState<T>>({ rows: new Map(), positions: new Map() });
  /** The last row a change removed (not a list reload), for pages that tell the user why it went. */
  const lastRemovedAtom = atom<{ row: T; position: number } | null>(null);

  const applyAtom = atom(null, (get, set, change: EntityChange<T>) => {
    const state = get(stateAtom);
    if (change.position <= (state.positions.get(change.id) ?? -Infinity)) return;
    const positions = new Map(state.positions);
    positions.set(change.id, change.position);
    let rows: Map<string, T>;
    if (change.op === 'remove') {
      const removed = state.rows.get(change.id);
      rows = new Map(state.rows);
      rows.delete(change.id);
      if (removed) set(lastRemovedAtom, { row: removed, position: change.position });
    } else if (state.rows.has(change.id)) {
      rows = new Map(state.rows);
      rows.set(change.id, change.row);
    } else {
      // The server lists newest first, so a row new to us goes on top.
      rows = new Map([[change.id, change.row], ...state.rows]);
    }
    set(stateAtom, { rows, positions });
  });

  /**
   * A fetched list answers for every row within `inScope` as of `load.position`: its rows replace
   * ours, and rows in scope it does not hold are gone. A row whose stored position is newer (a
   * push that arrived while the list was in flight) is left as it is, present or removed.
   */
  const loadAtom = atom(null, (get, set, load: EntityLoad<T>) => {
    const state = get(stateAtom);
    const newer = (id: string) => (state.positions.get(id) ?? -Infinity) > load.position;
    const positions = new Map(state.positions);
    // The fetched rows come first, in the server's order; rows outside the scope follow.
    const rows = new Map<string, T>();
    for (const row of load.rows) {
      if (newer(row._id)) {
        const pushed = state.rows.get(row._id);
        if (pushed) rows.set(row._id, pushed);
      } else {
        rows.set(row._id, row);
        positions.set(row._id, load.position);
      }
    }
    for (const [id, row] of state.rows) {
      if (rows.has(id)) continue;
      if (load.inScope(row) && !newer(id)) {
        positions.set(id, load.position);
        continue;
      }
      rows.set(id, row);
    }
    set(stateAtom, { rows, positions });
  });

  /**
   * A successful write applied at once, before its push: a patch of the row (or its removal)
   * placed just below the write's position, so the server's own push for that write still
   * lands while any older push is ignored.
   */
  const patchAtom = atom(null, (get, set, id: string, writtenAt: number, patch: Partial<T> | 'remove') => {
    const position = writtenAt - 0.5;
    if (patch === 'remove') return set(applyAtom, { op: 'remove', id, position });
    const row = get(stateAtom).rows.get(id);
    if (row) set(applyAtom, { op: 'upsert', id, row: { ...row, ...patch }, position });
  });

  return { stateAtom, applyAtom, loadAtom, patchAtom, lastRemovedAtom };
}

export type EntityStore<T extends Keyed> = ReturnType<typeof createEntityStore<T>>;
