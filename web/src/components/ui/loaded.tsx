import type { ReactNode } from 'react';
import { LoadError } from './load-error';
import { Spinner } from './spinner';

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
