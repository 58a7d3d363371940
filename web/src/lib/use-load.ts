import { startTransition, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { errorMessage, logFailure } from './api-client';
import { trackRead } from './first-screen';
import { onLiveReconnect } from './live-socket';

export interface LoadState {
  loading: boolean;
  /** The load failed and there is nothing to show instead: the page says so, with Retry. */
  error: string | null;
  /**
   * A reload failed while the page still shows what it loaded before: the page keeps it, and
   * the notice of stale loads (`useStaleLoads`) says so with a Retry.
   */
  stale: string | null;
  /** Runs the load again after a failure (the spinner shows only when nothing is on screen). */
  retry: () => void;
}

export interface LoadOptions {
  /**
   * Asked when the first load of a page fails: whether the page has something to show anyway
   * (rows another list read earlier). Then it is kept, and the failure is a stale notice.
   */
  hasData?: () => boolean;
}

/** A reload that failed on a page that kept its data: what went wrong, and a way to try again. */
export interface StaleLoad {
  error: string;
  retry: () => void;
}

const staleLoads = new Map<symbol, StaleLoad>();
let staleSnapshot: StaleLoad[] = [];
const staleListeners = new Set<() => void>();

function setStale(key: symbol, load: StaleLoad | null): void {
  const before = staleLoads.get(key);
  if (load) staleLoads.set(key, load);
  else if (before) staleLoads.delete(key);
  else return;
  staleSnapshot = [...staleLoads.values()];
  staleListeners.forEach((listener) => listener());
}

function subscribeStale(listener: () => void): () => void {
  staleListeners.add(listener);
  return () => staleListeners.delete(listener);
}

/** Every open page's failed reloads (each kept what it showed), for one notice with a Retry. */
export function useStaleLoads(): StaleLoad[] {
  return useSyncExternalStore(
    subscribeStale,
    () => staleSnapshot,
    () => staleSnapshot,
  );
}

/** Retries every failed reload at once (the notice's Retry). */
export function retryStaleLoads(): void {
  for (const load of [...staleLoads.values()]) load.retry();
}

/**
 * Runs `load` when the page mounts and whenever `load` changes (callers keep it stable with
 * useCallback). The data goes into a store by the caller; this tracks pending and failure.
 * A new `refreshKey` loads again in the background, keeping what is on screen meanwhile; so does
 * a failed load once the live connection comes back after a drop.
 *
 * Once a load succeeded, a later failure (a refresh during an outage) never replaces the page
 * with an error: it keeps what it shows and reports the failure as `stale`.
 */
export function useLoad(load: () => Promise<void>, refreshKey = 0, options: LoadOptions = {}): LoadState {
  const [state, setState] = useState<{ loading: boolean; error: string | null; stale: string | null }>({
    loading: true,
    error: null,
    stale: null,
  });
  const [attempt, setAttempt] = useState(0);
  const loaded = useRef<typeof load | null>(null);
  /** Whether the current `load` has put something on screen (it succeeded once). */
  const shown = useRef(false);
  /** Whether the last run failed, so a reconnect knows to run it again. */
  const failed = useRef(false);
  const hasData = useRef(options.hasData);
  hasData.current = options.hasData;
  const [key] = useState(() => Symbol('load'));

  const again = useCallback(() => setAttempt((n) => n + 1), []);

  useEffect(() => {
    let alive = true;
    if (loaded.current !== load) {
      shown.current = false;
      setState({ loading: true, error: null, stale: null });
    }
    loaded.current = load;
    trackRead(load()).then(
      () => {
        if (!alive) return;
        shown.current = true;
        failed.current = false;
        setStale(key, null);
        // Drawing what arrived (a page of cards, a product) as a transition: React renders it in
        // slices, so a slow phone stays responsive meanwhile (ADR 0043).
        startTransition(() => setState({ loading: false, error: null, stale: null }));
      },
      (error: unknown) => {
        logFailure(error);
        if (!alive) return;
        failed.current = true;
        const message = errorMessage(error);
        if (shown.current || hasData.current?.()) {
          shown.current = true;
          setStale(key, { error: message, retry: again });
          setState({ loading: false, error: null, stale: message });
        } else {
          setState({ loading: false, error: message, stale: null });
        }
      },
    );
    return () => {
      alive = false;
    };
  }, [load, attempt, refreshKey, key, again]);

  // Gone with the page: its failure is no longer anyone's to retry.
  useEffect(() => () => setStale(key, null), [key]);

  // Back online: what failed meanwhile is read again, without a click.
  useEffect(
    () =>
      onLiveReconnect(() => {
        if (failed.current) again();
      }),
    [again],
  );

  const retry = useCallback(() => {
    // With something on screen, it stays there while the load runs again.
    if (!shown.current) setState({ loading: true, error: null, stale: null });
    again();
  }, [again]);
  return { ...state, retry };
}
