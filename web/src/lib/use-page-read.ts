import type { RemovedListing } from '@tv-shop/contracts';
import { useCallback, useState } from 'react';
import { ApiError } from './api-client';
import { useLoad, type LoadState } from './use-load';

/**
 * Runs one page's read of one thing; a 404 is an answer (`notFound`: no such thing, or not
 * yours), not a failure a Retry could mend, and so is a 410 (`notFound` too, with `removed`: a
 * listing no longer for sale, and why). `load` must be stable; `refreshKey` as `useLoad`'s.
 */
export function usePageRead(load: () => Promise<void>, refreshKey = 0): LoadState & { notFound: boolean; removed: RemovedListing | null } {
  const [missing, setMissing] = useState<[typeof load, RemovedListing | undefined] | null>(null);
  const run = useCallback(async () => {
    try {
      await load();
      setMissing(null);
    } catch (error) {
      // Only a 410 names `removed`.
      if (error instanceof ApiError && (error.status === 404 || error.status === 410)) setMissing([load, error.problem.removed]);
      else throw error;
    }
  }, [load]);
  const state = useLoad(run, refreshKey);
  const answer = missing?.[0] === load && missing;
  return { ...state, notFound: !!answer, removed: (answer && answer[1]) || null };
}
