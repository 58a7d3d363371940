import type { Product, ProductSearchAnswer, View } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage, logFailure } from '@/lib/api-client';
import { noteListRead } from '@/lib/live-socket';
import { listsReloadAtom, useWatchView } from '@/lib/use-live-list';
import { useLoad } from '@/lib/use-load';
import { searchProducts } from '../api/search-products';
import { productsStore } from '../atoms';
import { useIdList } from '../use-id-list';
import { useNewlyListed } from '../use-newly-listed';
import { newlyMatches, placeInSort, sortsBefore, stillMatches, toApiQuery, type ProductSearchState } from './search-params';

interface Results {
  /** The search these pages answer (its canonical JSON). */
  key: string;
  /** The log position the first page was read at: a row pushed after it may be new to the search. */
  readAt: number;
  ids: string[];
  nextCursor: string | null;
  /**
   * The last row read, as it was read: the next page starts after it (the cursor holds its sort
   * value then), so a listing that joins past it waits for that page, whatever became of the row.
   */
  end: Product | undefined;
  /** Matches when the first page was read (later pages' totals would count twice what changed since). */
  total: number;
  /** More than the server counts (its count stops at 1,000). */
  capped: boolean;
}

/** What the server's words and place match a listing on (its search vector's fields). */
const matchedText = (p: Product) => [p.porduct_name, p.details, p.location, p.category_name].join('\n');

/** A page's last row as it was read (a copy: what the store does with the row later is not what the cursor holds). */
const endOf = (items: Product[]): Product | undefined => {
  const last = items.at(-1);
  return last && { ...last };
};

/** A page's rows answer only for themselves: rows of the store it does not hold stay as they are. */
const onlyItsRows = () => false;

/**
 * Runs a search page by page (Load more follows `nextCursor`). The rows go into the product
 * store and are shown by id, so pushes update them in place without a refetch; a row that no
 * longer matches the exact criteria (sold while `sold=false`, removed) drops out, and the total
 * counts it out too; a listing pushed since the search was read that matches it joins the results
 * (`useJoining`). A new search or Retry reads the first page again; a resync (the live connection
 * missed too much) reads as many pages as were shown, so a visitor far down keeps their place,
 * and if it fails the rows stay on screen with the page's notice of a failed refresh.
 */
export function useProductSearch(search: ProductSearchState) {
  const key = JSON.stringify(search);
  const current = useMemo(() => JSON.parse(key) as ProductSearchState, [key]);
  const [results, setResults] = useState<Results | null>(null);
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const reload = useAtomValue(listsReloadAtom);
  const loadIntoStore = useSetAtom(productsStore.loadAtom);
  const view = useMemo(() => searchView(current), [current]);
  useWatchView(view);

  /** Each result's words and place as the server matched them: changed since, they may no longer match. */
  const matchedAt = useRef(new Map<string, string>());
  /** Each result's price as the server placed it: changed since, a price sort places it again. */
  const pricedAt = useRef(new Map<string, number>());
  const take = useCallback(
    (answer: ProductSearchAnswer) => {
      for (const p of answer.items) {
        matchedAt.current.set(p._id, matchedText(p));
        pricedAt.current.set(p._id, p.resale_price);
      }
      loadIntoStore({ rows: answer.items, position: answer.position, inScope: onlyItsRows });
      noteListRead(answer.position, view);
      return answer.items.map((p) => p._id);
    },
    [loadIntoStore, view],
  );

  /** The rows shown for this search so far, for a reload to read as far. */
  const shownSoFar = useRef<{ key: string; count: number }>({ key: '', count: 0 });
  /** The newest read started: an older one answering late (the search changed since) is dropped. */
  const newestRead = useRef(0);
  const load = useCallback(async () => {
    const read = ++newestRead.current;
    setMore({ busy: false, error: null });
    const first = await searchProducts(toApiQuery(current));
    if (read !== newestRead.current) return;
    const ids = take(first);
    let nextCursor = first.nextCursor;
    let end = endOf(first.items);
    const want = shownSoFar.current.key === key ? shownSoFar.current.count : 0;
    while (nextCursor && ids.length < want) {
      const page = await searchProducts(toApiQuery(current, nextCursor));
      if (read !== newestRead.current) return;
      const pageIds = take(page);
      // A row read again (its price moved it since the page before was read) is where this page puts it.
      ids.splice(0, ids.length, ...ids.filter((id) => !pageIds.includes(id)), ...pageIds);
      nextCursor = page.nextCursor;
      end = endOf(page.items) ?? end;
    }
    setResults({ key, readAt: first.position, ids, nextCursor, end, total: first.total, capped: first.totalCapped });
  }, [key, current, take]);
  const state = useLoad(load, reload);

  const shown = results?.key === key ? results : null;
  useEffect(() => {
    shownSoFar.current = { key, count: shown?.ids.length ?? 0 };
  }, [key, shown]);
  const loadMore = useCallback(async () => {
    if (!shown?.nextCursor) return;
    const cursor = shown.nextCursor;
    const read = newestRead.current;
    setMore({ busy: true, error: null });
    try {
      const answer = await searchProducts(toApiQuery(current, cursor));
      // The list was read again meanwhile (a resync): its own read covers this page, or its own cursor does.
      if (read !== newestRead.current) return setMore({ busy: false, error: null });
      const ids = take(answer);
      setResults((r) =>
        r && r.key === key && r.nextCursor === cursor
          ? {
              ...r,
              ids: [...r.ids.filter((id) => !ids.includes(id)), ...ids],
              nextCursor: answer.nextCursor,
              end: endOf(answer.items) ?? r.end,
            }
          : r,
      );
      setMore({ busy: false, error: null });
    } catch (error) {
      logFailure(error);
      setMore({ busy: false, error: errorMessage(error) });
    }
  }, [shown?.nextCursor, current, key, take]);

  const keep = useCallback(
    (p: Product) => {
      if (!stillMatches(p, current)) return false;
      // Its seller changed its words or place since the server matched it (loosely: a misspelt
      // brand finds it): the page's own strict match decides, as for a listing that joins. A new
      // price or photo leaves the server's match standing.
      const matched = matchedAt.current.get(p._id);
      return matched === undefined || matched === matchedText(p) || newlyMatches(p, current);
    },
    [current],
  );
  const ids = useMemo(() => shown?.ids ?? [], [shown]);
  const read = useIdList(ids, keep);
  const joining = useJoining(shown, current);
  const products = useMemo(() => {
    // A row whose seller changed its price since it was read takes its new place in a price sort.
    const repriced =
      current.sort === 'newest' ? [] : read.filter((p) => (pricedAt.current.get(p._id) ?? p.resale_price) !== p.resale_price);
    const stayed = repriced.length === 0 ? read : read.filter((p) => !repriced.includes(p));
    return placeJoining(placeInSort(stayed, repriced, current.sort), joining, current.sort, !!shown?.nextCursor, shown?.end);
  }, [read, joining, current.sort, shown]);
  const error = shown ? null : state.error;

  return {
    products,
    // Rows that dropped out since they were read are no longer counted; rows that joined are.
    total: shown ? Math.max(0, shown.total - (shown.ids.length - read.length)) + joining.length : 0,
    totalCapped: !!shown?.capped,
    hasMore: !!shown?.nextCursor,
    loading: !shown && !error,
    error,
    retry: state.retry,
    loadMore,
    loadingMore: more.busy,
    loadMoreError: more.error,
  };
}

/**
 * What a search shows, for the server to send its changes (ADR 0045): its exact filters. Its
 * words and place are matched loosely by the server, so they do not narrow the view; the page
 * matches them itself (`stillMatches`, `newlyMatches`).
 */
function searchView(search: ProductSearchState): View {
  const price = (text: string) => {
    const n = Number(text);
    return text.trim() && Number.isFinite(n) ? n : undefined;
  };
  const filter: Extract<View, { kind: 'products' }>['filter'] = { sold: search.sold };
  if (search.category) filter.category = search.category;
  if (search.condition) filter.condition = search.condition;
  const min = price(search.minPrice);
  const max = price(search.maxPrice);
  if (min !== undefined) filter.minPrice = min;
  if (max !== undefined) filter.maxPrice = max;
  return { kind: 'products', filter };
}

/** Listings made after the search was read (they reach the store by push) that match it. */
function useJoining(shown: Results | null, search: ProductSearchState): Product[] {
  const matches = useCallback((row: Product) => newlyMatches(row, search), [search]);
  return useNewlyListed(shown, matches);
}

/**
 * Where joining listings go: in their place among the rows read by the search's sort (a new
 * listing on top of the newest; one for sale again where its listing time or price puts it),
 * unless the place is past `last`, the last row read as it was read (the next page's cursor), while
 * more pages remain (there, the next page brings it).
 */
function placeJoining(
  read: Product[],
  joining: Product[],
  sort: ProductSearchState['sort'],
  hasMore: boolean,
  last: Product | undefined,
): Product[] {
  const before = sortsBefore(sort);
  return placeInSort(read, hasMore && last ? joining.filter((p) => before(p, last)) : joining, sort);
}
