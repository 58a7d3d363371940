import {
  CONDITIONS,
  priceText,
  SEARCH_MAX_WORDS,
  type Condition,
  type Product,
  type SEARCH_SORTS as ServerSorts,
} from '@tv-shop/contracts';

export type SearchSort = (typeof ServerSorts)[number];
/** The server's sorts, spelt here so the browser does not import the schema module (and zod). */
export const SEARCH_SORTS = ['newest', 'price_asc', 'price_desc'] as const satisfies readonly SearchSort[];
export type SoldFilter = 'false' | 'true' | 'any';

/**
 * A search as the page's URL holds it. Text fields are kept as typed (prices too), so what the
 * user sees in a box is what the URL says; `toApiQuery` turns it into the server's query.
 */
export interface ProductSearchState {
  q: string;
  category: string;
  condition: Condition | '';
  location: string;
  minPrice: string;
  maxPrice: string;
  sold: SoldFilter;
  sort: SearchSort;
}

/**
 * With nothing in the URL, All Products and a category page show what is for sale, newest first,
 * a page at a time; "Show sold" writes `sold=any`.
 */
export const BROWSE: ProductSearchState = {
  q: '',
  category: '',
  condition: '',
  location: '',
  minPrice: '',
  maxPrice: '',
  sold: 'false',
  sort: 'newest',
};

/** Whether the search narrows what is for sale (words, condition, place, prices, sold ones) beyond a page's own category. */
export const isFiltered = (state: ProductSearchState): boolean =>
  state.q.trim() !== '' ||
  state.condition !== '' ||
  state.location.trim() !== '' ||
  state.minPrice.trim() !== '' ||
  state.maxPrice.trim() !== '' ||
  state.sold !== BROWSE.sold;

const TEXT_KEYS = ['q', 'category', 'location', 'minPrice', 'maxPrice'] as const;

const isCondition = (v: string | null): v is Condition => CONDITIONS.includes(v as Condition);
const isSort = (v: string | null): v is SearchSort => SEARCH_SORTS.includes(v as SearchSort);
const isSold = (v: string | null): v is SoldFilter => v === 'false' || v === 'true' || v === 'any';

/** The search in the URL; `fixed` (a category page's brand) wins over the query string. */
export function readSearch(params: URLSearchParams, fixed: Partial<ProductSearchState> = {}): ProductSearchState {
  const state: ProductSearchState = { ...BROWSE };
  for (const key of TEXT_KEYS) state[key] = params.get(key) ?? '';
  const condition = params.get('condition');
  if (isCondition(condition)) state.condition = condition;
  const sold = params.get('sold');
  if (isSold(sold)) state.sold = sold;
  const sort = params.get('sort');
  if (isSort(sort)) state.sort = sort;
  return { ...state, ...fixed };
}

/** The query string for a search: only what differs from browsing everything, in a fixed order. */
export function writeSearch(state: ProductSearchState, fixedKeys: readonly (keyof ProductSearchState)[] = []): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['q', 'category', 'condition', 'location', 'minPrice', 'maxPrice', 'sold', 'sort'] as const) {
    if (fixedKeys.includes(key)) continue;
    const value = state[key].trim();
    if (value !== BROWSE[key]) params.set(key, value);
  }
  return params;
}

/** The server's query (`GET /api/products/search`), always explicit about `sold`. */
export function toApiQuery(state: ProductSearchState, cursor?: string | null): Record<string, string> {
  const query: Record<string, string> = { sold: state.sold, sort: state.sort };
  for (const key of ['q', 'category', 'condition', 'location', 'minPrice', 'maxPrice'] as const) {
    const value = state[key].trim();
    if (value) query[key] = value;
  }
  if (cursor) query.cursor = cursor;
  return query;
}

/**
 * Whether a shown result still answers the search after a push. Only the exact criteria are
 * checked here (sold, brand, condition, price); words and location are matched loosely by the
 * server (a misspelt brand still finds it), so a result its seller edited since is checked with
 * `newlyMatches` too (use-product-search.ts).
 */
export function stillMatches(product: Product, state: ProductSearchState): boolean {
  if (state.sold === 'false' && product.sold) return false;
  if (state.sold === 'true' && !product.sold) return false;
  if (state.category && product.category_id !== state.category) return false;
  if (state.condition && product.product_condition !== state.condition) return false;
  const min = priceText(state.minPrice);
  const max = priceText(state.maxPrice);
  if (state.minPrice.trim() && Number.isFinite(min) && product.resale_price < min) return false;
  if (state.maxPrice.trim() && Number.isFinite(max) && product.resale_price > max) return false;
  return true;
}

// Marks too, as the server splits them: a Bengali word's vowel signs are part of it.
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean);

/**
 * Whether a listing that reached the page by a push (listed, or for sale again, after the search
 * was read) belongs in its results. Stricter than the server: each word must start a word of the
 * listing (no misspellings), so a listing shown is one the search would also have found.
 */
export function newlyMatches(product: Product, state: ProductSearchState): boolean {
  if (!stillMatches(product, state)) return false;
  const location = state.location.trim().toLowerCase();
  if (location && !product.location.toLowerCase().includes(location)) return false;
  const own = wordsOf(`${product.porduct_name} ${product.details} ${product.location} ${product.category_name}`);
  // The words the server counts: the first 8 different ones.
  return [...new Set(wordsOf(state.q))].slice(0, SEARCH_MAX_WORDS).every((word) => own.some((w) => w.startsWith(word)));
}

/** Whether `a` comes before `b` in the sort (ties: not before, so the one placed goes after its equals). */
export const sortsBefore = (sort: ProductSearchState['sort']) => (a: Product, b: Product) =>
  sort === 'newest' ? a.listedAt > b.listedAt : sort === 'price_asc' ? a.resale_price < b.resale_price : a.resale_price > b.resale_price;

/**
 * `rows` with `more` placed among them by the sort, each after the rows it does not come before
 * (a repriced row read by the search, a listing that joined it). One whose place is past the
 * last row goes last; with nothing to place, `rows` itself.
 */
export function placeInSort(rows: Product[], more: Product[], sort: ProductSearchState['sort']): Product[] {
  if (more.length === 0) return rows;
  const before = sortsBefore(sort);
  const placed = [...rows];
  for (const p of more) {
    const at = placed.findIndex((q) => before(p, q));
    placed.splice(at === -1 ? placed.length : at, 0, p);
  }
  return placed;
}
