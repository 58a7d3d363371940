import { lazy, type ComponentType } from 'react';
import { onLiveReconnect } from './live-socket';

const RELOADED_AT = 'tv-shop:reloaded-for-new-build';

/** Code of the app (a page, a form, a dialog) could not be downloaded; its message says why, in the user's words. */
export class CodeUnavailable extends Error {}

/** The code could not be downloaded because the server could not be reached (not a missing file). */
export class ServerUnreachable extends CodeUnavailable {}

/** How each piece of code that failed to load starts afresh (React.lazy keeps a failure for good). */
const failed = new Set<() => void>();

/** A component downloaded when first rendered, whose download can also be started (and awaited) before. */
export type RetryableLazy<P> = ComponentType<P> & {
  /** Downloads the code now; rejects with `CodeUnavailable` when it could not be. */
  preload(): Promise<void>;
};

/**
 * A lazily downloaded component that can be started afresh after its download failed: `load`'s
 * failure goes through `codeFailed`, and `retryFailedCode` has the next render download it again.
 * `preload` lets a dialog's button download it first and say so itself if it could not. Only a
 * page (`page: true`) reloads the tab for a new build: a part of a page or a dialog would lose
 * what the user was doing on the rest of it.
 */
export function retryableLazy<P extends object>(load: () => Promise<ComponentType<P>>, { page = false } = {}): RetryableLazy<P> {
  /** The download under way or done; forgotten when it failed, so the next try starts one. */
  let loading: Promise<ComponentType<P>> | null = null;
  const download = () =>
    (loading ??= load()).catch((err: unknown) => {
      loading = null;
      return codeFailed(err, restart, page);
    });
  /** Whether `Current` failed: React keeps that for good, so only then is it replaced. */
  let currentFailed = false;
  const fresh = () =>
    lazy<ComponentType<P>>(() =>
      download().then(
        (component) => ({ default: component }),
        (err: unknown) => {
          currentFailed = true;
          throw err;
        },
      ),
    );
  let Current = fresh();
  // A working one (downloaded by a dialog's button after an earlier try failed) stays mounted.
  const restart = () => {
    if (!currentFailed) return;
    currentFailed = false;
    Current = fresh();
  };
  function Retryable(props: P) {
    return <Current {...props} />;
  }
  Retryable.preload = () => download().then(() => undefined);
  return Retryable;
}

/**
 * Code failed to download. When the server answers, this tab most likely runs an older build
 * whose files a deploy replaced (the gateway answers 404 for them): a page is reloaded once, for
 * the new build's index.html (a part of one or a dialog says to reload instead). When it does not
 * answer (the network or the server is down), reloading would swap the app for the browser's own
 * error page and lose what the user was doing, so the failure is said in place, with Retry; so is
 * a page's second failure within a minute. (A browser that keeps a failed module download fails
 * the Retry at once; the server answering by then, a page's Retry reloads it.)
 */
async function codeFailed(err: unknown, restart: () => void, page: boolean): Promise<never> {
  failed.add(restart);
  const answering = await fetch('/', { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(5000) }).then(
    (res) => res.ok,
    () => false,
  );
  if (answering && page) {
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last > 60_000) {
      sessionStorage.setItem(RELOADED_AT, String(Date.now()));
      window.location.reload();
      // The reload takes over; what stands in for the code (a skeleton) stays until it does.
      return new Promise<never>(() => {});
    }
  }
  if (!answering) throw new ServerUnreachable('The server could not be reached.', { cause: err });
  throw new CodeUnavailable('Its code could not be downloaded; reload the page if Retry does not help.', { cause: err });
}

/** Starts all code whose download failed afresh: the next render downloads it again. */
export function retryFailedCode(): void {
  for (const restart of failed) restart();
  failed.clear();
}

/**
 * For a boundary whose code failed to download (a page, a part of one): `retry` is called once the
 * browser is back online or the live connection is back, while `failed()` says it is still down,
 * so the user need not press Retry. A failure told just after coming back (its server check takes
 * a moment) calls `justFailed()` and is tried once more at once. `stop` ends the listening.
 */
export function retryWhenBack(failed: () => boolean, retry: () => void): { justFailed(): void; stop(): void } {
  /** When the browser last came back with nothing failed here. */
  let cameBack = 0;
  const again = () => {
    if (failed()) retry();
    else cameBack = Date.now();
  };
  window.addEventListener('online', again);
  const stopReconnect = onLiveReconnect(again);
  return {
    justFailed() {
      if (Date.now() - cameBack >= 10_000) return;
      cameBack = 0;
      retry();
    },
    stop() {
      window.removeEventListener('online', again);
      stopReconnect();
    },
  };
}
