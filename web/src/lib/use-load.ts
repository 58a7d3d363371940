import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from './api-client';

export interface LoadState {
  loading: boolean;
  error: string | null;
  /** Runs the load again after a failure, showing the spinner meanwhile. */
  retry: () => void;
}

/**
 * Runs `load` when the page mounts and whenever `load` changes (callers keep it stable with
 * useCallback). The data goes into a store by the caller; this tracks pending and failure.
 * A new `refreshKey` loads again in the background, keeping what is on screen meanwhile.
 */
export function useLoad(load: () => Promise<void>, refreshKey = 0): LoadState {
  const [state, setState] = useState<{ loading: boolean; error: string | null }>({ loading: true, error: null });
  const [attempt, setAttempt] = useState(0);
  const loaded = useRef<typeof load | null>(null);

  useEffect(() => {
    let alive = true;
    if (loaded.current !== load) setState({ loading: true, error: null });
    loaded.current = load;
    load().then(
      () => alive && setState({ loading: false, error: null }),
      (error: unknown) => {
        console.error(error);
        if (alive) setState({ loading: false, error: errorMessage(error) });
      },
    );
    return () => {
      alive = false;
    };
  }, [load, attempt, refreshKey]);

  const retry = useCallback(() => {
    setState({ loading: true, error: null });
    setAttempt((n) => n + 1);
  }, []);
  return { ...state, retry };
}
