import { atom } from 'jotai';

export interface Keyed {
  _id: string;
}

/** One change to a row: a live push, or a write answer applied optimistically. */
export type EntityChange<T> = { op: 'upsert'; id: string; row: T; position: number } | { op: 'remove'; id: string; position: number };

/** Where the server lists the newest rows of an entity, and so where a row new to a page goes. */
export type NewRowsAt = 'top' | 'bottom';

export interface EntityState<T> {
  /** Insertion order is display order. Each change gives a new `rows` (in O(1): see `Table`). */
  rows: ReadonlyMap<string, T> & { end(which: NewRowsAt): string | undefined };
  /** The log position each row reflects, kept after a remove so stale data cannot revive it. */
  positions: ReadonlyMap<string, number>;
  /** Counts changes; a list that saw `version - 1` patches itself with `changed` instead of filtering the whole store. */
  version: number;
  /** The row the last change touched; null after a load (which may touch any). */
  changed: string | null;
}

/** A fetched list: its rows, the log position it reflects (`X-Position`), and which rows it answers for. */
export interface EntityLoad<T> {
  rows: T[];
  position: number;
  inScope: (row: T) => boolean;
}

interface Node<T> {
  id: string;
  row: T;
  prev: Node<T> | null;
  next: Node<T> | null;
}

/** How many past changes an earlier `rows` can still answer `get` for (a render or two behind). */
const HISTORY = 1024;

/**
 * The rows of an entity store, in display order, changed in place in O(1) a change: a map to
 * nodes of a doubly linked list (new rows go on top, removed ones are unlinked). Each change
 * bumps the version and remembers the row it replaced, so a `rows` handed out before it still
 * answers `get` as of its own version (a page comparing before and after, as a toast does).
 * A list load builds a new table, leaving the old one to the `rows` that still hold it.
 */
class Table<T> {
  constructor(private readonly newRowsAt: NewRowsAt) {}
  private readonly nodes = new Map<string, Node<T>>();
  private head: Node<T> | null = null;
  private tail: Node<T> | null = null;
  version = 0;
  /** Per row, what it was before each recent change (oldest first), and the order of those changes. */
  private readonly history = new Map<string, { version: number; before: T | undefined }[]>();
  private readonly log: string[] = [];

  get size(): number {
    return this.nodes.size;
  }
  current(id: string): T | undefined {
    return this.nodes.get(id)?.row;
  }
  /** The id of the row at the top, or at the bottom. */
  end(which: NewRowsAt): string | undefined {
    return (which === 'top' ? this.head : this.tail)?.id;
  }
  /** The row as of `version` (an earlier one only within the history kept). */
  at(id: string, version: number): T | undefined {
    if (version < this.version) {
      const past = this.history.get(id);
      if (past) for (const h of past) if (h.version > version) return h.before;
    }
    return this.nodes.get(id)?.row;
  }
  *entries(): IterableIterator<[string, T]> {
    for (let n = this.head; n; n = n.next) yield [n.id, n.row];
  }

  /** Appends a row at the bottom; counts no change itself (a load builds a table with it, `change` counts its own). */
  append(id: string, row: T): void {
    const node: Node<T> = { id, row, prev: this.tail, next: null };
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.nodes.set(id, node);
  }

  /** Puts a row in place (or on top, or at the bottom, when new; or removes it); one change. */
  change(id: string, row: T | undefined): void {
    this.remember(id);
    const node = this.nodes.get(id);
    if (row === undefined) {
      if (!node) return;
      if (node.prev) node.prev.next = node.next;
      else this.head = node.next;
      if (node.next) node.next.prev = node.prev;
      else this.tail = node.prev;
      this.nodes.delete(id);
    } else if (node) {
      node.row = row;
    } else if (this.newRowsAt === 'bottom') {
      this.append(id, row);
    } else {
      const top: Node<T> = { id, row, prev: null, next: this.head };
      if (this.head) this.head.prev = top;
      else this.tail = top;
      this.head = top;
      this.nodes.set(id, top);
    }
  }

  private remember(id: string): void {
    this.version += 1;
    let past = this.history.get(id);
    if (!past) this.history.set(id, (past = []));
    past.push({ version: this.version, before: this.nodes.get(id)?.row });
    this.log.push(id);
    if (this.log.length > HISTORY) {
      const old = this.log.shift()!;
      const list = this.history.get(old);
      list?.shift();
      if (list?.length === 0) this.history.delete(old);
    }
  }
}

/** The rows of one version of a table: O(1) to make, the map every list and page reads. */
class Rows<T> implements ReadonlyMap<string, T> {
  constructor(
    private readonly table: Table<T>,
    private readonly version: number,
  ) {}
  get size(): number {
    return this.table.size;
  }
  get(id: string): T | undefined {
    return this.table.at(id, this.version);
  }
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }
  /** The id of the row at the top, or at the bottom (the table's latest). */
  end(which: NewRowsAt): string | undefined {
    return this.table.end(which);
  }
  /** In display order (the table's latest: an earlier version lists today's order). */
  entries(): MapIterator<[string, T]> {
    return this.table.entries() as MapIterator<[string, T]>;
  }
  *keys(): MapIterator<string> {
    for (const [id] of this.table.entries()) yield id;
  }
  *values(): MapIterator<T> {
    for (const [, row] of this.table.entries()) yield row;
  }
  [Symbol.iterator](): MapIterator<[string, T]> {
    return this.entries();
  }
  forEach(fn: (value: T, key: string, map: ReadonlyMap<string, T>) => void): void {
    for (const [id, row] of this.table.entries()) fn(row, id, this);
  }
}

/**
 * A client-side table of one entity, patched in place by pushes instead of refetching.
 * Lists on screen are filters over it (my products, reported items, a category...).
 * A push costs O(1) whatever the number of rows (ADR 0045); a list load rebuilds the table.
 */
export function createEntityStore<T extends Keyed>({ newRowsAt = 'top' }: { newRowsAt?: NewRowsAt } = {}) {
  let table = new Table<T>(newRowsAt);
  const positions = new Map<string, number>();
  /** Counts every change and load, across tables. */
  let version = 0;
  const stateAtom = atom<EntityState<T>>({ rows: new Rows(table, 0), positions, version: 0, changed: null });
  /** The last row a change removed (not a list reload), for pages that tell the user why it went. */
  const lastRemovedAtom = atom<{ row: T; position: number } | null>(null);

  const applyAtom = atom(null, (_get, set, change: EntityChange<T>) => {
    if (change.position <= (positions.get(change.id) ?? -Infinity)) return;
    positions.set(change.id, change.position);
    if (change.op === 'remove') {
      const removed = table.current(change.id);
      if (!removed) return;
      table.change(change.id, undefined);
      set(lastRemovedAtom, { row: removed, position: change.position });
    } else {
      // A row new to us goes where the server lists the newest (`newRowsAt`); a known one stays where it is.
      table.change(change.id, change.row);
    }
    version += 1;
    set(stateAtom, { rows: new Rows(table, table.version), positions, version, changed: change.id });
  });

  /**
   * A fetched list answers for every row within `inScope` as of `load.position`: its rows replace
   * ours, and rows in scope it does not hold are gone. A row whose stored position is newer (a
   * push that arrived while the list was in flight) is left as it is, present or removed.
   */
  const loadAtom = atom(null, (_get, set, load: EntityLoad<T>) => {
    const newer = (id: string) => (positions.get(id) ?? -Infinity) > load.position;
    const old = table;
    const fresh = new Table<T>(newRowsAt);
    // The fetched rows come first, in the server's order; rows outside the scope follow.
    for (const row of load.rows) {
      if (fresh.current(row._id) !== undefined) continue;
      if (newer(row._id)) {
        const pushed = old.current(row._id);
        if (pushed) fresh.append(row._id, pushed);
      } else {
        fresh.append(row._id, row);
        positions.set(row._id, load.position);
      }
    }
    for (const [id, row] of old.entries()) {
      if (fresh.current(id) !== undefined) continue;
      if (load.inScope(row) && !newer(id)) {
        positions.set(id, load.position);
        continue;
      }
      fresh.append(id, row);
    }
    table = fresh;
    version += 1;
    set(stateAtom, { rows: new Rows(table, table.version), positions, version, changed: null });
  });

  /**
   * A successful write applied at once, before its push: a patch of the row (or its removal)
   * placed just below the write's position, so the server's own push for that write still
   * lands while any older push is ignored.
   */
  const patchAtom = atom(null, (_get, set, id: string, writtenAt: number, patch: Partial<T> | 'remove') => {
    const position = writtenAt - 0.5;
    if (patch === 'remove') return set(applyAtom, { op: 'remove', id, position });
    const row = table.current(id);
    if (row) set(applyAtom, { op: 'upsert', id, row: { ...row, ...patch }, position });
  });

  return { stateAtom, applyAtom, loadAtom, patchAtom, lastRemovedAtom };
}

export type EntityStore<T extends Keyed> = ReturnType<typeof createEntityStore<T>>;
