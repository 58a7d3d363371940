import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { readSearch, writeSearch, type ProductSearchState } from './search-params';

/**
 * The page's search lives in its query string, so a link shares it and back/forward restore it.
 * `fixed` holds what the page itself decides (a category page's brand); it stays out of the URL.
 */
export function useSearchInUrl(fixed: Partial<ProductSearchState> = {}) {
  const [params, setParams] = useSearchParams();
  const fixedKey = JSON.stringify(fixed);
  const query = params.toString();
  const search = useMemo(
    () => readSearch(new URLSearchParams(query), JSON.parse(fixedKey) as Partial<ProductSearchState>),
    [query, fixedKey],
  );
  const fixedKeys = useMemo(() => Object.keys(JSON.parse(fixedKey) as object) as (keyof ProductSearchState)[], [fixedKey]);

  const update = useCallback(
    (patch: Partial<ProductSearchState>) => {
      const next = writeSearch({ ...search, ...patch, ...(JSON.parse(fixedKey) as Partial<ProductSearchState>) }, fixedKeys);
      if (next.toString() !== query) setParams(next, { preventScrollReset: true });
    },
    [search, fixedKey, fixedKeys, query, setParams],
  );

  return { search, update };
}
