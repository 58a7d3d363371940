import { useCallback, useRef, useState } from 'react';
import { errorMessage, logFailure } from './api-client';

/**
 * A form's submit: busy while it runs, and the server's words (not a log line) when it fails. A
 * second submit while one runs (a double click, Enter before the button is drawn busy) does nothing.
 */
export function useSubmit<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const submit = useCallback(
    async (...args: A) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setError(null);
      try {
        await action(...args);
      } catch (failure) {
        logFailure(failure);
        setError(errorMessage(failure));
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [action],
  );
  return { submit, busy, error, setError };
}
