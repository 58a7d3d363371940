import { atom } from 'jotai';

export interface Keyed {
  _id: string;
}

/** One change to a row: a live push, or a write answer applied optimistically. */
export type EntityChange<T> =
  | { op: 'upsert'; id: string; row: T; position: number }
  | { op: 'remove'; id: string; position: number };

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
    const rows = new Map(state.rows);
    const positions = new Map(state.positions);
    positions.set(change.id, change.position);
    if (change.op === 'upsert') rows.set(change.id, change.row);
    else rows.delete(change.id);
    set(stateAtom, { rows, positions });
  });

  /**
   * A fetched list answers for every row within `inScope`: rows in scope it does not hold are
   * gone. Rows a push has already touched are newer than any fetch and are left alone.
   */
  const loadAtom = atom(null, (get, set, load: { rows: T[]; inScope: (row: T) => boolean }) => {
    const state = get(stateAtom);
    const fetched = new Set(load.rows.map((row) => row._id));
    const rows = new Map(state.rows);
    for (const [id, row] of state.rows) {
      if (!fetched.has(id) && load.inScope(row) && !state.positions.has(id)) rows.delete(id);
    }
    for (const row of load.rows) {
      if (!state.positions.has(row._id)) rows.set(row._id, row);
    }
    set(stateAtom, { rows, positions: state.positions });
  });

  return { stateAtom, applyAtom, loadAtom };
}

export type EntityStore<T extends Keyed> = ReturnType<typeof createEntityStore<T>>;
