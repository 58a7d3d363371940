import { useEffect, useState, useSyncExternalStore } from 'react';
import { Button } from './button';
import { Notice } from './notice';
import { liveStatus, subscribeLiveStatus } from '@/lib/live-socket';
import { retryStaleLoads, useStaleLoads } from '@/lib/use-load';

type LoadErrorProps = ({ what: string; title?: never } | { title: string; what?: never }) & { error: string; onRetry: () => void };

/** A list that failed to load says so, with the server's words and a way to try again. */
export function LoadError({ what, title, error, onRetry }: LoadErrorProps) {
  return (
    <Notice
      className="load-error"
      type="error"
      role="alert"
      title={title ?? `Could not load the ${what}.`}
      description={error}
      action={
        <Button size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

/**
 * A refresh that failed while the page still shows what it had: a small notice above it, with
 * the server's words and a Retry, instead of an error in the list's place.
 */
export function StaleNotice({ error, onRetry }: { error: string; onRetry: () => void }) {
  return (
    <Notice
      className="stale-notice"
      type="warning"
      banner
      role="status"
      title={`Could not refresh this page; showing what was loaded before. ${error}`}
      action={
        <Button size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

/** A drop shorter than this (the browser's own reconnect after a network change) says nothing. */
const QUIET_DROP_MS = 800;

/** Whether the live connection has been down for a moment after it worked. */
function useReconnecting(): boolean {
  const status = useSyncExternalStore(subscribeLiveStatus, liveStatus, liveStatus);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (status !== 'reconnecting') {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), QUIET_DROP_MS);
    return () => clearTimeout(timer);
  }, [status]);
  return shown;
}

/**
 * What an outage looks like: a small "Reconnecting..." while the live connection is down, and,
 * when a page could not refresh what it shows, a notice with Retry (the page keeps its data).
 * Both go once the connection is back and the page caught up.
 */
export function OutageNotices() {
  const reconnecting = useReconnecting();
  const stale = useStaleLoads();
  const first = stale[0];
  return (
    <div className="outage-notices">
      <div role="status" aria-live="polite">
        {reconnecting ? <p className="reconnecting-banner">Reconnecting...</p> : null}
      </div>
      {first ? <StaleNotice error={first.error} onRetry={retryStaleLoads} /> : null}
    </div>
  );
}
