import { useCallback, useState } from 'react';
import { ApiError } from './api-client';
import { useLoad, type LoadState } from './use-load';

/**
 * Runs one page's read of one thing; a 404 is an answer (`notFound`: no such thing, or not
 * yours), not a failure a Retry could mend. `load` must be stable; `refreshKey` as `useLoad`'s.
 */
export function usePageRead(load: () => Promise<void>, refreshKey = 0): LoadState & { notFound: boolean } {
  const [missing, setMissing] = useState<typeof load | null>(null);
  const run = useCallback(async () => {
    try {
      await load();
      setMissing(null);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setMissing(() => load);
      else throw error;
    }
  }, [load]);
  const state = useLoad(run, refreshKey);
  return { ...state, notFound: missing === load };
}
