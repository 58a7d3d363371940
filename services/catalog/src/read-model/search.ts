import type pg from 'pg';
import type { Product, ProductSearch } from '@tv-shop/contracts';
import { validation, withTransaction } from '@tv-shop/platform';
import { PRODUCT_COLUMNS, toProduct, type ProductRow } from './rows';

export interface SearchPage {
  items: Product[];
  nextCursor: string | null;
  total: number;
}

/** Where each sort orders by, and which way: always ending in the id, so every row has one place. */
const ORDER = {
  newest: { column: 'listed_at', direction: 'desc' },
  price_asc: { column: 'resale_poisha', direction: 'asc' },
  price_desc: { column: 'resale_poisha', direction: 'desc' },
} as const;

/** A cursor is the last row's sort value and id, opaque to clients (base64url JSON). */
const encodeCursor = (value: string, id: string) => Buffer.from(JSON.stringify([value, id])).toString('base64url');
function decodeCursor(cursor: string): [string, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((x) => typeof x === 'string') && /^-?\d+$/.test(parsed[0] as string))
      return parsed as [string, string];
  } catch {
    // Not ours: refused below like any other malformed cursor.
  }
  throw validation('cursor', 'is not a cursor this search gave out');
}

/**
 * One page of catalog search, in PostgreSQL: words match the search vector (full text) or, for a
 * misspelling, the name by trigram word similarity; filters on indexed columns; keyset paging on
 * (sort value, id), so page 100 costs what page 1 costs. `total` counts every match.
 */
export async function searchProducts(pool: pg.Pool, query: ProductSearch): Promise<SearchPage> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (query.sold !== 'any') where.push(query.sold === 'true' ? 'sold' : 'not sold');
  if (query.q) {
    const q = param(query.q);
    where.push(`(search @@ websearch_to_tsquery('simple', ${q}) or ${q} operator(public.<%) name)`);
  }
  if (query.category) where.push(`category_id = ${param(query.category)}`);
  if (query.condition) where.push(`condition = ${param(query.condition)}`);
  if (query.location) where.push(`location ilike ${param(`%${query.location.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  if (query.minPrice !== undefined) where.push(`resale_poisha >= ${param(Math.round(query.minPrice * 100))}`);
  if (query.maxPrice !== undefined) where.push(`resale_poisha <= ${param(Math.round(query.maxPrice * 100))}`);
  const filters = where.length ? `where ${where.join(' and ')}` : '';
  const countParams = [...params];

  const { column, direction } = ORDER[query.sort];
  const page = [...where];
  if (query.cursor) {
    const [value, id] = decodeCursor(query.cursor);
    page.push(`(${column}, id) ${direction === 'desc' ? '<' : '>'} (${param(value)}::bigint, ${param(id)})`);
  }
  const limit = param(query.limit + 1);
  const [rows, count] = await withTransaction(pool, async (db) => {
    // A misspelt brand ("samsng" against "Samsung": 0.57) falls just under pg_trgm's default 0.6.
    await db.query('set local pg_trgm.word_similarity_threshold = 0.5');
    const found = await db.query<ProductRow & { listed_at: string }>(
      `select ${PRODUCT_COLUMNS} from rm_catalog.products ${page.length ? `where ${page.join(' and ')}` : ''}
        order by ${column} ${direction}, id ${direction} limit ${limit}`,
      params,
    );
    const counted = await db.query<{ n: string }>(`select count(*) as n from rm_catalog.products ${filters}`, countParams);
    return [found, counted] as const;
  });
  const more = rows.rows.length > query.limit;
  const shown = more ? rows.rows.slice(0, query.limit) : rows.rows;
  const last = shown[shown.length - 1];
  return {
    items: shown.map(toProduct),
    nextCursor: more && last ? encodeCursor(column === 'listed_at' ? last.listed_at : last.resale_poisha, last.id) : null,
    total: Number(count.rows[0]?.n ?? 0),
  };
}
