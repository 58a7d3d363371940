import { Component, type ReactNode } from 'react';
import { CodeUnavailable, retryFailedCode, retryWhenBack } from '@/lib/code-download';

interface PartState {
  error: CodeUnavailable | null;
  /** An error of another kind, thrown on from here. */
  other: { error: unknown } | null;
}

interface PartBoundaryProps {
  /** What the part is, for the message: "the card form". */
  what: string;
  children: ReactNode;
}

/**
 * Around a part of a page downloaded when it first shows (a form, the charts: ADR 0041): a part
 * whose code could not be downloaded (the phone went offline meanwhile) says so in its own place,
 * with Retry, and is tried again by itself once the browser is online or the live connection is
 * back; the rest of the page stays. Any other error is the page's, for its boundary. (A dialog
 * downloads its code before it opens instead: `preload` in code-download.tsx.)
 */
export class PartBoundary extends Component<PartBoundaryProps, PartState> {
  override state: PartState = { error: null, other: null };
  private back: ReturnType<typeof retryWhenBack> | null = null;

  static getDerivedStateFromError(error: unknown): PartState {
    // Not the download's: thrown on while rendering, to the page's boundary.
    return error instanceof CodeUnavailable ? { error, other: null } : { error: null, other: { error } };
  }

  override componentDidMount() {
    this.back = retryWhenBack(() => this.state.error !== null, this.retry);
  }

  override componentDidUpdate(_: PartBoundaryProps, before: PartState) {
    if (!before.error && this.state.error) this.back?.justFailed();
  }

  override componentWillUnmount() {
    this.back?.stop();
  }

  private readonly retry = () => {
    retryFailedCode();
    this.setState({ error: null });
  };

  override render() {
    const { error, other } = this.state;
    if (other) throw other.error;
    if (!error) return this.props.children;
    // LoadError's look, written out: importing it from here splits the shell's chunks (the bundle budget).
    return (
      <div className="notice notice--error notice--with-description load-error" role="alert">
        <div className="notice__content">
          <div className="notice__title">{`Could not load ${this.props.what}.`}</div>
          <div className="notice__description">{error.message}</div>
        </div>
        <div className="notice__action">
          <button type="button" className="btn btn--default btn--small" onClick={this.retry}>
            <span>Retry</span>
          </button>
        </div>
      </div>
    );
  }
}
