import { RecentlyUsed } from '../recently-used';

type Row = Record<string, unknown>;

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
};

/** A copy of a row whose nested objects and arrays are frozen copies (its plain values need none). */
function frozenCopy(row: Row): Row {
  const copy: Row = {};
  for (const [column, value] of Object.entries(row)) {
    copy[column] = typeof value === 'object' && value !== null ? deepFreeze(structuredClone(value)) : value;
  }
  return copy;
}

/** How many rows of one table are kept, at most: the most recently used. */
export const KEPT_ROWS_PER_TABLE = 5000;

/**
 * Rows of a projection's own tables as its committed batches left them, kept in memory between
 * batches by the runner that leads the projection (ADR 0052), so a batch that touches rows a recent
 * batch read or wrote need not read them again: a listing's seller, a product toggled again, the
 * day's audit figures. The leading runner is the only writer of its projection's tables, and a
 * batch's rows become the tables' rows when it commits, so what is kept is what the tables hold.
 *
 * The runner empties it whenever that might not be so: a batch that fails (its writes rolled
 * back, or its outcome unknown), a checkpoint moved by someone else (a rebuild), a new attempt at
 * leading, a batch applied without the batch form. Only the rows of tables whose `RowSet`s are
 * given it are kept; such a table is written only through those sets (`RowSet.save`) while it is.
 *
 * It keeps rows that exist, never that a key has none: a row another statement of the batch
 * inserts (`insertRows`, an `on conflict do nothing`) cannot make a kept answer wrong. A row goes
 * in as a deep copy whose nested values (a listing's photos, say) are frozen, and comes out as a
 * shallow copy of that: a batch may replace a row's values, and one that changed a nested value in
 * place would fail at once rather than change what is kept (or the event it came from).
 */
export class KeptRows {
  private readonly tables = new Map<string, RecentlyUsed<string, Row>>();

  constructor(private readonly perTable = KEPT_ROWS_PER_TABLE) {}

  /** A copy of the row kept under this key, if any (now the most recently used). */
  get(table: string, key: string): Row | undefined {
    const row = this.tables.get(table)?.get(key);
    return row && { ...row };
  }

  /** Keeps a copy of the row under this key; the least recently used goes beyond the bound. */
  set(table: string, key: string, row: Row): void {
    let rows = this.tables.get(table);
    if (!rows) this.tables.set(table, (rows = new RecentlyUsed<string, Row>(this.perTable)));
    rows.set(key, frozenCopy(row));
  }

  /** Forgets the row under this key (the batch deleted it). */
  delete(table: string, key: string): void {
    this.tables.get(table)?.delete(key);
  }

  /** Forgets every row: the tables may no longer hold them. */
  clear(): void {
    this.tables.clear();
  }

  /** How many rows are kept, over every table. */
  get size(): number {
    let n = 0;
    for (const rows of this.tables.values()) n += rows.size;
    return n;
  }
}
