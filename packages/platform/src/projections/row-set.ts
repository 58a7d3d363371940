import type pg from 'pg';
import { inlineParams } from '../db/sql-text';
import type { KeptRows } from './kept-rows';
import type { BatchContext } from './types';

/** Where a batch's writes go: run with its commit (`BatchContext.later`). */
type Writes = Pick<BatchContext, 'later'>;

type Row = Record<string, unknown>;

const ident = (s: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(s)) throw new Error(`bad identifier ${s}`);
  return `"${s}"`;
};

/**
 * Inserts rows in one statement, each given as its column values by name (as `to_json` of a row
 * would show it: text, numbers, booleans, arrays, ISO times, JSON). The rows must all name the same
 * columns: those the first row names are written (in the table's order, leaving out generated
 * ones such as a search vector); a column no row names gets its default. Like a plain insert it
 * fails on a taken key; nothing is inserted then. Written with the batch's commit
 * (`later`); `public.insert_rows` (the projections' migration 0003) finds the columns in the
 * table the search_path names, server-side.
 */
export function insertRows(writes: Writes, table: string, rows: Row[]): void {
  if (rows.length === 0) return;
  writes.later('select public.insert_rows($1::regclass, $2::json)', [ident(table), JSON.stringify(rows)]);
}

/**
 * One table's rows for one batch of events, in memory: the rows the batch will touch are read
 * once (`load`), the events change them here with the meaning of the SQL a handler would run
 * (`insert`, `update`, `delete`, by key), and `save` writes what changed in two statements: the
 * stored versions of changed and removed rows deleted by key, the changed rows inserted. Rows are
 * kept as `to_json` shows them (bigints as numbers, times as ISO strings), and written back with
 * `json_populate_recordset`, so a value read and written back is the value it was.
 *
 * Every row a batch touches must be loaded before the first change: a row the table holds and
 * this set does not know would be missed by `update` and `delete`, or make `save` fail as a
 * duplicate.
 *
 * Given the runner's `KeptRows` (`BatchContext.kept`, ADR 0052), the set keeps what it loads and
 * what it saves there, and `byKeys` takes the rows kept from earlier batches instead of reading
 * them: the table must then be changed only through sets given it.
 */
export class RowSet<R extends object> {
  private readonly rows = new Map<string, R>();
  /** The keys (as column values) of the rows the table holds now, by key. */
  private readonly stored = new Map<string, Row>();
  private readonly changed = new Set<string>();

  constructor(
    readonly table: string,
    private readonly keyColumns: (keyof R & string)[],
    private readonly kept?: KeptRows,
  ) {}

  /** The key of a row, or of the key columns' values in order. */
  keyOf(row: Partial<R>): string {
    return this.keyColumns.length === 1 ? String(row[this.keyColumns[0]!]) : JSON.stringify(this.keyColumns.map((c) => row[c]));
  }

  private keyColumnsOf(row: R): Row {
    return Object.fromEntries(this.keyColumns.map((c) => [c, row[c]]));
  }

  /**
   * Reads the rows `where` matches (a condition on the table, aliased `t`; `$1`… are `params`).
   * The condition must be one of keys (`t.id = any($1)`, or several such): when every parameter
   * is an empty list it matches nothing, and nothing is read.
   */
  async load(db: pg.ClientBase, where: string, params: unknown[]): Promise<void> {
    await RowSet.loadTogether(db, [[this, where, params]]);
  }

  /**
   * The load (for `loadTogether`) of the rows with these keys, `where` naming them by its one
   * parameter (`t.id = any($1)`): the rows kept from earlier batches are taken at once, and only
   * the others are read.
   */
  byKeys(where: string, keys: Iterable<string>): Load {
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      if (this.rows.has(key)) continue;
      const row = this.kept?.get(this.table, key) as R | undefined;
      if (row) this.hold(key, row);
      else missing.push(key);
    }
    return [this, where, [missing]];
  }

  private selecting(where: string, params: unknown[]): string | null {
    if (params.every((p) => Array.isArray(p) && p.length === 0)) return null;
    return `select to_json(t) as row from ${ident(this.table)} t where ${inlineParams(where, params)}`;
  }

  private take(rows: { row: R }[]): void {
    for (const { row } of rows) {
      const key = this.keyOf(row);
      if (this.rows.has(key)) continue;
      this.hold(key, row);
      this.kept?.set(this.table, key, row as Row);
    }
  }

  /** A row as the table holds it now, read or kept. */
  private hold(key: string, row: R): void {
    this.rows.set(key, row);
    this.stored.set(key, this.keyColumnsOf(row));
  }

  /** `load` of several sets in one round trip (their parameters written into one query's text). */
  static async loadTogether(db: pg.ClientBase, loads: Load[]): Promise<void> {
    const wanted = loads.flatMap(([set, where, params]) => {
      const sql = set.selecting(where, params);
      return sql === null ? [] : [{ set, sql }];
    });
    if (wanted.length === 0) return;
    const answer = (await db.query(wanted.map((w) => w.sql).join('\n;\n'))) as unknown as
      pg.QueryResult<{ row: object }> | pg.QueryResult<{ row: object }>[];
    const results = Array.isArray(answer) ? answer : [answer];
    wanted.forEach((w, i) => w.set.take(results[i]!.rows));
  }

  get(key: string): R | undefined {
    return this.rows.get(key);
  }

  values(): IterableIterator<R> {
    return this.rows.values();
  }

  /** Adds a row with every column given; like an insert it fails when its key is taken. */
  insert(row: R): void {
    const key = this.keyOf(row);
    if (this.rows.has(key)) throw new Error(`duplicate key value violates the primary key of ${this.table}: ${key}`);
    this.rows.set(key, row);
    this.changed.add(key);
  }

  /** Sets columns of the row with this key, like an update by key: false when there is none. */
  update(key: string, set: Partial<R>): boolean {
    const row = this.rows.get(key);
    if (!row) return false;
    Object.assign(row, set);
    this.changed.add(key);
    return true;
  }

  /** Removes the row with this key, like a delete by key; answers the row removed, if any. */
  delete(key: string): R | undefined {
    const row = this.rows.get(key);
    if (!row) return undefined;
    this.rows.delete(key);
    this.changed.add(key);
    return row;
  }

  /**
   * Writes every change made since the load, with the batch's commit (`later`): the stored
   * versions of changed and removed rows deleted by key, the changed rows inserted. The set (and
   * what it keeps) then reflects the table as it will be once the batch commits.
   */
  save(writes: Writes): void {
    const gone = [...this.changed].filter((k) => this.stored.has(k)).map((k) => this.stored.get(k)!);
    if (gone.length > 0) {
      const t = ident(this.table);
      const on = this.keyColumns.map((c) => `t.${ident(c)} = k.${ident(c)}`).join(' and ');
      writes.later(`delete from ${t} t using json_populate_recordset(null::${t}, $1) k where ${on}`, [JSON.stringify(gone)]);
    }
    const rows = [...this.changed].flatMap((k) => this.rows.get(k) ?? []);
    insertRows(writes, this.table, rows as Row[]);
    for (const k of this.changed) {
      const row = this.rows.get(k);
      if (row) {
        this.stored.set(k, this.keyColumnsOf(row));
        this.kept?.set(this.table, k, row as Row);
      } else {
        this.stored.delete(k);
        this.kept?.delete(this.table, k);
      }
    }
    this.changed.clear();
  }
}

/** A set to load, the condition on its table and the condition's parameters (as `RowSet.load` takes them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Load = [RowSet<any>, string, unknown[]];

/**
 * The rows a batch changed, each with the position of the last event that changed it, in the
 * order of those last changes: what a batch announces, once a row (ADR 0044).
 */
export class LastChanges extends Map<string, number> {
  touch(id: string, position: number): void {
    this.delete(id);
    this.set(id, position);
  }
}
