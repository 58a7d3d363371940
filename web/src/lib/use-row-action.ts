import { useCallback, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { ApiError, answerCutShort, errorMessage, isOutage, logFailure } from './api-client';

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
 * How a row's action ended: `done`; `refused`, not done as asked or not known to be (the shop's
 * refusal, its error, an answer cut short): the row as the page shows it may be out of date, and a
 * read now can tell; `failed`, where a read now would fail as well (the shop out of reach or unable
 * to work it: no answer, 502-504; or the session over, a 401); `busy`, not sent (its row's action
 * is on its way).
 */
export type RowOutcome = 'done' | 'refused' | 'failed' | 'busy';

/** What a failed action's error says of the row: see `RowOutcome`. */
export function failureOutcome(error: unknown): 'refused' | 'failed' {
  const unreadable = (isOutage(error) && !answerCutShort(error)) || (error instanceof ApiError && error.status === 401);
  return unreadable ? 'failed' : 'refused';
}

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
        return failureOutcome(error);
      } finally {
        finish(id);
      }
    },
    [action, successText, start, finish],
  );
  return { run, isPending };
}
