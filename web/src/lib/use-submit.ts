import { useCallback, useState } from 'react';
import { errorMessage, logFailure } from './api-client';

/** A form's submit: busy while it runs, and the server's words (not a log line) when it fails. */
export function useSubmit<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        await action(...args);
      } catch (failure) {
        logFailure(failure);
        setError(errorMessage(failure));
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return { submit, busy, error, setError };
}
