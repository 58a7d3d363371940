import { useCallback, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage, logFailure } from './api-client';

/**
 * Which rows of a table have an action on its way. Each row is busy until its own action ends
 * (another row's ending does not free it), and an action asked again for a busy row (a second
 * click, a second OK) is not sent: `start` answers false.
 */
export function usePendingRows() {
  const busy = useRef(new Set<string>());
  const [pending, setPending] = useState<ReadonlySet<string>>(() => new Set());
  const start = useCallback((id: string) => {
    if (busy.current.has(id)) return false;
    busy.current.add(id);
    setPending(new Set(busy.current));
    return true;
  }, []);
  const finish = useCallback((id: string) => {
    busy.current.delete(id);
    setPending(new Set(busy.current));
  }, []);
  const isPending = useCallback((id: string) => pending.has(id), [pending]);
  return { start, finish, isPending };
}

/**
 * A button's action on one row of a table (verify a seller, mark a TV sold...): which rows are
 * busy, the spec's success toast, and the server's words on failure. `run` answers whether it
 * succeeded; asked again for a row whose action is on its way, it sends nothing and answers false.
 */
export function useRowAction(action: (id: string) => Promise<void>, successText: string) {
  const { start, finish, isPending } = usePendingRows();
  const run = useCallback(
    async (id: string): Promise<boolean> => {
      if (!start(id)) return false;
      try {
        await action(id);
        toast.success(successText);
        return true;
      } catch (error) {
        logFailure(error);
        toast.error(errorMessage(error));
        return false;
      } finally {
        finish(id);
      }
    },
    [action, successText, start, finish],
  );
  return { run, isPending };
}
