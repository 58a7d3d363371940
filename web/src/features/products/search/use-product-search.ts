import type { Product, ProductSearchAnswer } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { noteListRead } from '@/lib/live-socket';
import { listsReloadAtom } from '@/lib/use-live-list';
import { searchProducts } from '../api/search-products';
import { productsStore } from '../atoms';
import { useIdList } from '../use-id-list';
import { stillMatches, toApiQuery, type ProductSearchState } from './search-params';

interface Results {
  /** The search these pages answer (its canonical JSON). */
  key: string;
  ids: string[];
  nextCursor: string | null;
  total: number;
}

/** A page's rows answer only for themselves: rows of the store it does not hold stay as they are. */
const onlyItsRows = () => false;

/**
 * Runs a search page by page (Load more follows `nextCursor`). The rows go into the product
 * store and are shown by id, so pushes update them in place without a refetch; a row that no
 * longer matches the exact criteria (sold while `sold=false`, removed) drops out, and the total
 * counts it out too. A new search, Retry or a resync reads the first page again.
 */
export function useProductSearch(search: ProductSearchState) {
  const key = JSON.stringify(search);
  const current = useMemo(() => JSON.parse(key) as ProductSearchState, [key]);
  const [results, setResults] = useState<Results | null>(null);
  const [failure, setFailure] = useState<{ key: string; message: string } | null>(null);
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [attempt, setAttempt] = useState(0);
  const reload = useAtomValue(listsReloadAtom);
  const loadIntoStore = useSetAtom(productsStore.loadAtom);

  const take = useCallback(
    (answer: ProductSearchAnswer) => {
      loadIntoStore({ rows: answer.items, position: answer.position, inScope: onlyItsRows });
      noteListRead(answer.position);
      return answer.items.map((p) => p._id);
    },
    [loadIntoStore],
  );

  useEffect(() => {
    let alive = true;
    setFailure(null);
    setMore({ busy: false, error: null });
    searchProducts(toApiQuery(current)).then(
      (answer) => {
        if (!alive) return;
        const ids = take(answer);
        setResults({ key, ids, nextCursor: answer.nextCursor, total: answer.total });
      },
      (error: unknown) => {
        console.error(error);
        if (alive) setFailure({ key, message: errorMessage(error) });
      },
    );
    return () => {
      alive = false;
    };
  }, [key, current, attempt, reload, take]);

  const shown = results?.key === key ? results : null;
  const loadMore = useCallback(async () => {
    if (!shown?.nextCursor) return;
    setMore({ busy: true, error: null });
    try {
      const answer = await searchProducts(toApiQuery(current, shown.nextCursor));
      const ids = take(answer);
      setResults((r) =>
        r && r.key === key
          ? { ...r, ids: [...r.ids, ...ids.filter((id) => !r.ids.includes(id))], nextCursor: answer.nextCursor, total: answer.total }
          : r,
      );
      setMore({ busy: false, error: null });
    } catch (error) {
      console.error(error);
      setMore({ busy: false, error: errorMessage(error) });
    }
  }, [shown?.nextCursor, current, key, take]);

  const keep = useCallback((p: Product) => stillMatches(p, current), [current]);
  const ids = useMemo(() => shown?.ids ?? [], [shown]);
  const products = useIdList(ids, keep);
  const error = failure?.key === key ? failure.message : null;
  const retry = useCallback(() => {
    setFailure(null);
    setResults(null);
    setAttempt((n) => n + 1);
  }, []);

  return {
    products,
    // Rows that dropped out since they were read are no longer counted.
    total: shown ? Math.max(0, shown.total - (shown.ids.length - products.length)) : 0,
    hasMore: !!shown?.nextCursor,
    loading: !shown && !error,
    error,
    retry,
    loadMore,
    loadingMore: more.busy,
    loadMoreError: more.error,
  };
}
