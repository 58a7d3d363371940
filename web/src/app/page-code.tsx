import { Component, lazy, type ComponentType, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { LoadError } from '@/components/ui/load-error';

const RELOADED_AT = 'tv-shop:reloaded-for-new-build';

/** A page's code could not be downloaded; its message says why, in the user's words. */
export class PageCodeUnavailable extends Error {}

/** How each page whose code failed to load starts afresh (React.lazy keeps a failure for good). */
const failed = new Set<() => void>();

/**
 * Every page is downloaded when it is first opened, so the first page costs only the shell and
 * itself (scripts/bundle-budget.mjs holds each route to its budget; ADR 0041). `name` is the
 * module's export, so the pages keep their named exports. A page whose download failed is tried
 * again when its boundary's Retry is pressed (`PageBoundary`).
 */
export function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ComponentType {
  const fresh = () =>
    lazy<ComponentType>(() =>
      load().then(
        (m) => ({ default: m[name] }),
        (err: unknown) => pageCodeFailed(err, restart),
      ),
    );
  let Current = fresh();
  const restart = () => {
    Current = fresh();
  };
  function Page() {
    return <Current />;
  }
  Page.displayName = `Page(${name})`;
  return Page;
}

/**
 * A page's code failed to download. When the server answers, this tab most likely runs an older
 * build whose files a deploy replaced (the gateway answers 404 for them): the page is reloaded
 * once, for the new build's index.html. When it does not answer (the network or the server is
 * down), reloading would swap the app for the browser's own error page and lose what the user was
 * doing, so the page says so in place, with Retry; so does a second failure within a minute.
 * (A browser that keeps a failed module download fails the Retry at once; the server answering
 * by then, that Retry reloads the page.)
 */
async function pageCodeFailed(err: unknown, restart: () => void): Promise<never> {
  failed.add(restart);
  const answering = await fetch('/', { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(5000) }).then(
    (res) => res.ok,
    () => false,
  );
  if (answering) {
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last > 60_000) {
      sessionStorage.setItem(RELOADED_AT, String(Date.now()));
      window.location.reload();
      // The reload takes over; the page's skeleton stays until it does.
      return new Promise<never>(() => {});
    }
  }
  throw new PageCodeUnavailable(
    answering ? 'Its code could not be downloaded; reload the page if Retry does not help.' : 'The server could not be reached.',
    { cause: err },
  );
}

/** Starts every page whose code failed to load afresh: the next render downloads it again. */
function retryFailedPages() {
  for (const restart of failed) restart();
  failed.clear();
}

interface BoundaryProps {
  children: ReactNode;
  /** The address shown: moving elsewhere clears an error. */
  at: string;
}

class Boundary extends Component<BoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate(prev: BoundaryProps) {
    if (this.state.error && prev.at !== this.props.at) this.setState({ error: null });
  }

  private readonly retry = () => {
    retryFailedPages();
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const unavailable = error instanceof PageCodeUnavailable;
    return (
      <div className="page-error" style={{ maxWidth: 720, margin: '32px auto', padding: '0 16px' }}>
        <LoadError
          title={unavailable ? 'Could not open this page.' : 'Something went wrong on this page.'}
          error={unavailable ? error.message : 'Try again; if it keeps happening, reload the page.'}
          onRetry={this.retry}
        />
      </div>
    );
  }
}

/**
 * A page's own error boundary: a page whose code could not be downloaded, or that failed while
 * rendering, shows an error with Retry in its place, and the rest of the app (the header, the
 * dashboard's menu) stays as it was.
 */
export function PageBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary at={pathname}>{children}</Boundary>;
}
