import type { ReactNode } from 'react';
import { LoadError } from './load-error';
import { RowsSkeleton } from './skeleton';

/**
 * What a page shows for a list: placeholders in its shape while it loads (rows unless `skeleton`
 * says otherwise), the error with Retry, or the list.
 */
export function Loaded({
  loading,
  error,
  retry,
  what,
  skeleton,
  children,
}: {
  loading: boolean;
  error: string | null;
  retry: () => void;
  what: string;
  skeleton?: ReactNode;
  children: ReactNode;
}) {
  if (loading) return skeleton ?? <RowsSkeleton label={`Loading the ${what}`} />;
  if (error) return <LoadError what={what} error={error} onRetry={retry} />;
  return <>{children}</>;
}
