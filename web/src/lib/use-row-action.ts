import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage, logFailure } from './api-client';

/**
 * A button's action on one row of a table (verify a seller, mark a TV sold...): which row is busy,
 * the spec's success toast, and the server's words on failure. `run` answers whether it succeeded.
 */
export function useRowAction(action: (id: string) => Promise<void>, successText: string) {
  const [pendingId, setPendingId] = useState<string | null>(null);
  const run = useCallback(
    async (id: string): Promise<boolean> => {
      setPendingId(id);
      try {
        await action(id);
        toast.success(successText);
        return true;
      } catch (error) {
        logFailure(error);
        toast.error(errorMessage(error));
        return false;
      } finally {
        setPendingId(null);
      }
    },
    [action, successText],
  );
  return { run, pendingId };
}
