import { atom } from 'jotai';

export interface Keyed {
  _id: string;
}

/** One change to a row: a live push, or a write answer applied optimistically. */
export type EntityChange<T> = { op: 'upsert'; id: string; row: T; position: number } | { op: 'remove'; id: string; position: number };

export interface EntityState<T> {
  /** Insertion order is display order. */
  rows: ReadonlyMap<string, T>;
  /** The log position last applied per id, kept after a remove so stale data cannot revive it. */
  positions: ReadonlyMap<string, number>;
}

/**
 * A client-side table of one entity, patched in place by pushes instead of refetching.
 * Lists on screen are filters over it (my products, reported items, a category...).
 */
export function createEntityStore<T extends Keyed>() {
  const stateAtom = atom<EntityState<T>>({ rows: new Map(), positions: new Map() });

  const applyAtom = atom(null, (get, set, change: EntityChange<T>) => {
    const state = get(stateAtom);
    if (change.position <= (state.positions.get(change.id) ?? -Infinity)) return;
    const positions = new Map(state.positions);
    positions.set(change.id, change.position);
    let rows: Map<string, T>;
    if (change.op === 'remove') {
      rows = new Map(state.rows);
      rows.delete(change.id);
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
   * A fetched list answers for every row within `inScope`: rows in scope it does not hold are
   * gone. Rows a push has already touched are newer than any fetch and are left alone.
   */
  const loadAtom = atom(null, (get, set, load: { rows: T[]; inScope: (row: T) => boolean }) => {
    const state = get(stateAtom);
    // The fetched rows come first, in the server's order; rows outside the scope follow.
    const rows = new Map<string, T>();
    for (const row of load.rows) {
      if (state.positions.has(row._id)) {
        const pushed = state.rows.get(row._id);
        if (pushed) rows.set(row._id, pushed);
      } else {
        rows.set(row._id, row);
      }
    }
    for (const [id, row] of state.rows) {
      if (rows.has(id)) continue;
      if (load.inScope(row) && !state.positions.has(id)) continue;
      rows.set(id, row);
    }
    set(stateAtom, { rows, positions: state.positions });
  });

  return { stateAtom, applyAtom, loadAtom };
}

export type EntityStore<T extends Keyed> = ReturnType<typeof createEntityStore<T>>;
