import { Component, type ComponentType, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { LoadError } from '@/components/ui/load-error';
import { CodeUnavailable, retryableLazy, retryFailedCode, retryWhenBack, ServerUnreachable } from '@/lib/code-download';

/**
 * Every page is downloaded when it is first opened, so the first page costs only the shell and
 * itself (scripts/bundle-budget.mjs holds each route to its budget; ADR 0041). `name` is the
 * module's export, so the pages keep their named exports. A page whose download failed is tried
 * again when its boundary's Retry is pressed, or, when the server could not be reached, by itself
 * once the browser or the live connection is back (`PageBoundary`); a deploy that replaced the
 * build reloads the page once (`retryableLazy`).
 */
export function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ComponentType {
  const Page = retryableLazy(() => load().then((m) => m[name]), { page: true });
  Page.displayName = `Page(${name})`;
  return Page;
}

interface BoundaryProps {
  children: ReactNode;
  /** The address shown: moving elsewhere clears an error. */
  at: string;
}

class Boundary extends Component<BoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  /**
   * A page whose code did not come because the server could not be reached is tried again by itself
   * once the browser or the live connection is back. Not one whose file was missing while the
   * server answered: trying that again reloads the tab (codeFailed), which only Retry may do.
   */
  private back: ReturnType<typeof retryWhenBack> | null = null;

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidMount() {
    this.back = retryWhenBack(() => this.state.error instanceof ServerUnreachable, this.retry);
  }

  override componentDidUpdate(prev: BoundaryProps, before: { error: Error | null }) {
    if (this.state.error && prev.at !== this.props.at) this.setState({ error: null });
    else if (!(before.error instanceof ServerUnreachable) && this.state.error instanceof ServerUnreachable) this.back?.justFailed();
  }

  override componentWillUnmount() {
    this.back?.stop();
  }

  private readonly retry = () => {
    retryFailedCode();
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const unavailable = error instanceof CodeUnavailable;
    return (
      <div className="page-error">
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
 * dashboard's menu) stays as it was. A page whose code did not come because the server could not
 * be reached opens by itself once the browser is online or the live connection is back.
 */
export function PageBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary at={pathname}>{children}</Boundary>;
}
