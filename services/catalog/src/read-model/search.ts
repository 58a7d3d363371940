import type pg from 'pg';
import { ID_PATTERN, SEARCH_COUNT_CAP, SEARCH_MAX_WORDS, type Product, type ProductSearch } from '@tv-shop/contracts';
import { validation } from '@tv-shop/platform';
import { PRODUCT_COLUMNS, toProduct, type ProductRow } from './rows';

export interface SearchPage {
  items: Product[];
  nextCursor: string | null;
  total: number;
  totalCapped: boolean;
}

/** Where each sort orders by, and which way: always ending in the id, so every row has one place. */
const ORDER = {
  newest: { column: 'listed_at', direction: 'desc' },
  price_asc: { column: 'resale_poisha', direction: 'asc' },
  price_desc: { column: 'resale_poisha', direction: 'desc' },
} as const;

/**
 * A cursor is the last row's sort value and id, and the sort it was given for, opaque to clients
 * (base64url JSON): a cursor of one sort used with another would compare a time with prices.
 */
const encodeCursor = (value: string, id: string, sort: ProductSearch['sort']) =>
  Buffer.from(JSON.stringify([value, id, sort])).toString('base64url');
function decodeCursor(cursor: string, sort: ProductSearch['sort']): [string, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      // Two members: a cursor given out before the sort was in it (its page still open).
      (parsed.length === 2 || (parsed.length === 3 && parsed[2] === sort)) &&
      parsed.every((x) => typeof x === 'string') &&
      /^-?\d{1,18}$/.test(parsed[0] as string) &&
      // An id as the catalog gives them (a NUL or any odd text would reach PostgreSQL as a parameter).
      ID_PATTERN.test(parsed[1] as string)
    )
      return [parsed[0] as string, parsed[1] as string];
  } catch {
    // Not ours: refused below like any other malformed cursor.
  }
  throw validation('cursor', 'is not a cursor this search gave out');
}

/** A prefix that starts more known words than this is matched as a prefix (`sam:*`) instead. */
const MAX_COMPLETIONS = 20;

/**
 * The words of `q` as a full-text query in which every word must match. Each word is looked up in
 * `search_words`, every word any listing holds: it matches itself when known, and the known words
 * it starts ("sam" → samsung); a word that is neither is replaced by the known words closest to it
 * by trigrams ("samsng" → samsung). Whole words, not `:*` prefixes, because PostgreSQL estimates a
 * prefix at a fixed 1,000 rows and then walks 50,000 listings for a rare one; a whole word it
 * estimates from its statistics. Null when `q` has no word.
 */
async function searchTerms(pool: pg.Pool, q: string): Promise<string | null> {
  const words = [
    ...new Set(
      q
        .toLowerCase()
        // Marks too: a Bengali word's vowel signs are part of it ("ঢাকা").
        .split(/[^\p{L}\p{M}\p{N}]+/u)
        .filter((w) => w.length > 0),
    ),
  ].slice(0, SEARCH_MAX_WORDS);
  if (words.length === 0) return null;
  // One row per word, each with its own literal prefix pattern, so every look-up is an index scan.
  const lookups = words.map(
    (_, i) => `select ${i} as i, exists (select 1 from rm_catalog.search_words where word = $${2 * i + 1}) as known,
       array(select word from rm_catalog.search_words where word like $${2 * i + 2} and word <> $${2 * i + 1}
             order by length(word), word limit ${MAX_COMPLETIONS + 1}) as longer`,
  );
  const { rows } = await pool.query<{ i: number; known: boolean; longer: string[] }>(
    lookups.join(' union all '),
    words.flatMap((w) => [w, `${w}%`]),
  );
  const alternatives: string[][] = [];
  // One after another, so that a search of unknown words holds one connection, not eight.
  for (const { i, known, longer } of rows.sort((a, b) => a.i - b.i)) {
    const word = words[i]!;
    const whole = [...(known ? [word] : []), ...longer];
    if (longer.length > MAX_COMPLETIONS) alternatives.push([`${word}:*`]);
    else if (whole.length > 0) alternatives.push(whole);
    else alternatives.push((await nearWords(pool, word)) ?? [word]);
  }
  // Only letters, marks and digits reach to_tsquery (the words are split on anything else, and
  // search_words holds only such words), so no word can change the query's syntax.
  return alternatives.map((a) => `(${a.join(' | ')})`).join(' & ');
}

/** The known words closest to a word no listing has, by trigrams ("samsng" → samsung); null if none is close. */
async function nearWords(pool: pg.Pool, word: string): Promise<string[] | null> {
  // search_words keeps words of 1-40 characters: a longer one has no neighbour to find.
  if (word.length < 4 || word.length > 40 || /^\d+$/.test(word)) return null;
  const { rows } = await pool.query<{ word: string }>(
    `select word from rm_catalog.search_words where word operator(public.%) $1
      order by public.similarity(word, $1) desc, word limit 3`,
    [word],
  );
  return rows.length > 0 ? rows.map((r) => r.word) : null;
}

/**
 * One page of catalog search, in PostgreSQL: words match the search vector (full text, misspelt
 * words first replaced by known ones); filters on indexed columns; keyset paging on (sort value,
 * id), so page 100 costs what page 1 costs. `total` counts every match.
 */
export async function searchProducts(pool: pg.Pool, query: ProductSearch): Promise<SearchPage> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  let worded: string | null = null;
  if (query.sold !== 'any') where.push(query.sold === 'true' ? 'sold' : 'not sold');
  if (query.q) {
    const terms = await searchTerms(pool, query.q);
    if (terms) {
      worded = param(terms);
      where.push(`search @@ to_tsquery('simple', ${worded})`);
    }
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
    const [value, id] = decodeCursor(query.cursor, query.sort);
    page.push(`(${column}, id) ${direction === 'desc' ? '<' : '>'} (${param(value)}::bigint, ${param(id)})`);
  }
  const limit = param(query.limit + 1);
  // Counting every match of a common word costs a visit to each; past the cap, "at least" is enough.
  const count = await pool.query<{ n: string }>(
    `select count(*) as n from (select 1 from rm_catalog.products ${filters} limit ${SEARCH_COUNT_CAP + 1}) m`,
    countParams,
  );
  const matches = Number(count.rows[0]?.n ?? 0);
  const pageWhere = page.length ? `where ${page.join(' and ')}` : '';
  const order = `order by ${column} ${direction}, id ${direction} limit ${limit}`;
  // With words, the count says which plan fits, whatever the planner guesses of a word (it
  // estimates many a rare one as common, then walks the whole sort index for it): up to the cap,
  // the matches are few enough to collect and sort; past it, the sort's index finds a page soon.
  // Filters on columns alone the planner estimates well from their statistics.
  const collect = worded !== null && matches <= SEARCH_COUNT_CAP;
  const rows = await pool.query<ProductRow>(
    collect
      ? `with found as materialized (select id, ${column} as sort_value from rm_catalog.products ${pageWhere}),
              page as (select id from found order by sort_value ${direction}, id ${direction} limit ${limit})
         select ${PRODUCT_COLUMNS} from rm_catalog.products where id in (select id from page) ${order}`
      : `select ${PRODUCT_COLUMNS} from rm_catalog.products ${pageWhere} ${order}`,
    params,
  );
  const more = rows.rows.length > query.limit;
  const shown = more ? rows.rows.slice(0, query.limit) : rows.rows;
  const last = shown[shown.length - 1];
  return {
    items: shown.map(toProduct),
    nextCursor: more && last ? encodeCursor(column === 'listed_at' ? last.listed_at : last.resale_poisha, last.id, query.sort) : null,
    total: Math.min(matches, SEARCH_COUNT_CAP),
    totalCapped: matches > SEARCH_COUNT_CAP,
  };
}
