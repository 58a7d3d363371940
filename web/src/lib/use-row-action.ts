import { useCallback, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { ApiError, errorMessage, logFailure } from './api-client';

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
 * How a row's action ended: `done`; `refused` by the shop (a 4xx: the row is not as this page
 * showed it, say, or the ask was wrong); `failed` (the shop could not be reached, or could not work
 * it now: a 503; nothing is known to have changed); `busy`, not sent (its row's action is on its way).
 */
export type RowOutcome = 'done' | 'refused' | 'failed' | 'busy';

/**
 * A button's action on one row of a table (verify a seller, mark a TV sold...): which rows are
 * busy, the spec's success toast, and the server's words on failure. `run` answers how it ended;
 * asked again for a row whose action is on its way, it sends nothing and answers `busy`.
 */
export function useRowAction(action: (id: string) => Promise<void>, successText: string) {
  const { start, finish, isPending } = usePendingRows();
  const run = useCallback(
    async (id: string): Promise<RowOutcome> => {
      if (!start(id)) return 'busy';
      try {
        await action(id);
        toast.success(successText);
        return 'done';
      } catch (error) {
        logFailure(error);
        toast.error(errorMessage(error));
        return error instanceof ApiError && error.status >= 400 && error.status < 500 ? 'refused' : 'failed';
      } finally {
        finish(id);
      }
    },
    [action, successText, start, finish],
  );
  return { run, isPending };
}
