import type pg from 'pg';
import { SECRET_NAME } from '../secrets';

/** One table whose live rows and rebuilt rows are not the same. */
export interface TableDifference {
  table: string;
  /** Rows (with their multiplicity) in the live table and not in the rebuilt one. */
  onlyLive: number;
  /** Rows in the rebuilt table and not in the live one. */
  onlyRebuilt: number;
  /** Up to `maxRows` of them, ordered by their columns so that a changed row's two versions sit together. */
  rows: { side: 'live' | 'rebuilt'; row: Record<string, string | null> }[];
  /** Set instead of rows when the tables cannot be compared row by row (missing, other columns). */
  note?: string;
}

export interface SchemaComparison {
  /** Tables compared (those in the rebuilt schema). */
  tables: number;
  /** Rows in the live tables compared. */
  rows: number;
  differences: TableDifference[];
}

export interface VerifyProgress {
  /** Events read from the log into the scratch tables so far. */
  replayed: number;
  /** Events up to `upTo`, when known (else null). */
  total: number | null;
  position: number;
  upTo: number;
}

export interface VerifyOptions {
  /** Verify as of this position; default: the live checkpoint when verify starts. */
  upTo?: number;
  /** How long to wait for the live checkpoint to reach `upTo` (ms); default 60 s. */
  waitMs?: number;
  /** Rows listed per differing table; default 20. */
  maxRows?: number;
  /** Called after each batch replayed into the scratch tables. */
  onProgress?: (p: VerifyProgress) => void;
  /** How many events the log holds up to a position (for progress); without it, progress has no total. */
  countEvents?: (upTo: number) => Promise<number>;
}

export interface VerifyResult {
  name: string;
  /** The position the live tables and the rebuilt ones were compared at. */
  position: number;
  equal: boolean;
  tables: number;
  rows: number;
  differences: TableDifference[];
}

/** Quotes a name read from the catalog (any characters). */
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Tables of a schema (partitions are read through their parent). */
const shown = (row: Record<string, string | null>): Record<string, string | null> =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, SECRET_NAME.test(k) && v !== null ? '[hidden]' : v]));

async function tablesOf(db: pg.ClientBase, schema: string): Promise<string[]> {
  const { rows } = await db.query<{ relname: string }>(
    `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
    [schema],
  );
  return rows.map((r) => r.relname);
}

async function columnsOf(db: pg.ClientBase, schema: string, table: string): Promise<string[]> {
  const { rows } = await db.query<{ attname: string }>(
    `select a.attname from pg_attribute a
      where a.attrelid = to_regclass(format('%I.%I', $1::text, $2::text)) and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [schema, table],
  );
  return rows.map((r) => r.attname);
}

/**
 * Compares every table of `rebuilt` with the table of the same name in `live`, row by row and
 * on every column: `EXCEPT ALL` both ways (a duplicated row counts). Columns are compared as
 * their text form, so that types without an equality operator (json, point) compare too, and
 * two values are equal only when PostgreSQL prints them the same (1.0 and 1.00 differ).
 * Run it inside the transaction whose snapshot both schemas should be read in. A differing
 * row's secret columns (a password's hash) are listed as `[hidden]`: only that they differ shows.
 */
export async function compareSchemas(db: pg.ClientBase, live: string, rebuilt: string, maxRows = 20): Promise<SchemaComparison> {
  const liveTables = await tablesOf(db, live);
  const rebuiltTables = await tablesOf(db, rebuilt);
  const differences: TableDifference[] = [];
  let rows = 0;
  for (const table of liveTables.filter((t) => !rebuiltTables.includes(t)))
    differences.push({ table: `${live}.${table}`, onlyLive: 0, onlyRebuilt: 0, rows: [], note: 'a live table the rebuild did not make' });
  for (const table of rebuiltTables) {
    const name = `${live}.${table}`;
    if (!liveTables.includes(table)) {
      differences.push({ table: name, onlyLive: 0, onlyRebuilt: 0, rows: [], note: 'the rebuild made a table the live schema lacks' });
      continue;
    }
    const columns = await columnsOf(db, rebuilt, table);
    const liveColumns = await columnsOf(db, live, table);
    if (columns.join('\0') !== liveColumns.join('\0')) {
      differences.push({
        table: name,
        onlyLive: 0,
        onlyRebuilt: 0,
        rows: [],
        note: `other columns: live (${liveColumns.join(', ')}), rebuilt (${columns.join(', ')})`,
      });
      continue;
    }
    const select = (schema: string) =>
      `select ${columns.length ? columns.map((c) => `${quote(c)}::text as ${quote(c)}`).join(', ') : ''} from ${quote(schema)}.${quote(table)}`;
    const diff = `with l as (${select(live)} except all ${select(rebuilt)}), r as (${select(rebuilt)} except all ${select(live)})`;
    const counts = await db.query<{ only_live: string; only_rebuilt: string; live_rows: string }>(
      `${diff} select (select count(*) from l) as only_live, (select count(*) from r) as only_rebuilt,
              (select count(*) from ${quote(live)}.${quote(table)}) as live_rows`,
    );
    const c = counts.rows[0]!;
    rows += Number(c.live_rows);
    const onlyLive = Number(c.only_live);
    const onlyRebuilt = Number(c.only_rebuilt);
    if (onlyLive === 0 && onlyRebuilt === 0) continue;
    // Ordered by the first column (usually the key), live before rebuilt, then the other columns:
    // a changed row's two versions sit together.
    const order = columns.length ? ['2', '1', ...columns.slice(1).map((_, i) => String(i + 3))].join(', ') : '1';
    const listed = await db.query<Record<string, string | null> & { __side: 'live' | 'rebuilt' }>(
      `${diff} select * from (select 'live' as __side, l.* from l union all select 'rebuilt', r.* from r) d order by ${order} limit $1`,
      [maxRows],
    );
    differences.push({
      table: name,
      onlyLive,
      onlyRebuilt,
      rows: listed.rows.map(({ __side, ...row }) => ({ side: __side, row: shown(row) })),
    });
  }
  return { tables: rebuiltTables.length, rows, differences };
}

/** What an operator reads: "catalog: equal (N rows in M tables)", or the differing rows. */

export function describeVerifyResult(r: VerifyResult, maxRows = 20): string[] {
  if (r.equal) return [`${r.name}: equal (${r.rows} rows in ${r.tables} tables)`];
  const lines = [
    `${r.name}: DIFFERS at position ${r.position} (${r.differences.length} of ${r.tables} tables differ; ${r.rows} live rows compared)`,
  ];
  for (const d of r.differences) {
    if (d.note) {
      lines.push(`  ${d.table}: ${d.note}`);
      continue;
    }
    lines.push(`  ${d.table}: ${d.onlyLive} rows only in the live table, ${d.onlyRebuilt} only in the rebuilt one`);
    for (const { side, row } of d.rows) lines.push(`    ${side === 'live' ? 'live:   ' : 'rebuilt:'} ${JSON.stringify(shown(row))}`);
    const more = d.onlyLive + d.onlyRebuilt - d.rows.length;
    if (more > 0) lines.push(`    … and ${more} more differing rows (${maxRows} listed)`);
  }
  return lines;
}
