import type { ReactNode } from 'react';
import { Alert, Button } from 'antd';
import { Spinner } from './spinner';

type LoadErrorProps = ({ what: string; title?: never } | { title: string; what?: never }) & { error: string; onRetry: () => void };

/** A list that failed to load says so, with the server's words and a way to try again. */
export function LoadError({ what, title, error, onRetry }: LoadErrorProps) {
  return (
    <Alert
      className="load-error"
      type="error"
      showIcon
      role="alert"
      message={title ?? `Could not load the ${what}.`}
      description={error}
      action={
        <Button size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

/** What a page shows for a list: the spinner while it loads, the error with Retry, or the list. */
export function Loaded({
  loading,
  error,
  retry,
  what,
  children,
}: {
  loading: boolean;
  error: string | null;
  retry: () => void;
  what: string;
  children: ReactNode;
}) {
  if (loading) return <Spinner />;
  if (error) return <LoadError what={what} error={error} onRetry={retry} />;
  return <>{children}</>;
}
