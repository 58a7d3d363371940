import { useEffect, useState, type DependencyList } from 'react';
import { errorMessage } from './api-client';

export interface LoadState {
  loading: boolean;
  error: string | null;
}

/**
 * Runs a fetch when the page mounts (or `deps` change). The data goes into a store by the
 * caller; this only tracks pending and failure for spinners.
 */
export function useLoad(load: () => Promise<void>, deps: DependencyList): LoadState {
  const [state, setState] = useState<LoadState>({ loading: true, error: null });
  useEffect(() => {
    let alive = true;
    setState({ loading: true, error: null });
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
    // The caller names its own dependencies, like useEffect.
  }, deps);
  return state;
}
