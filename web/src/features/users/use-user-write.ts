import type { User, WriteAnswer } from '@tv-shop/contracts';
import { useAtomCallback } from 'jotai/utils';
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '@/lib/api-client';
import { usersStore } from './atoms';

/** One admin action on a user: call, toast, and patch the row just below the write's position. */
export function useUserWrite(call: (id: string) => Promise<WriteAnswer>, patch: Partial<User> | 'remove', successText: string) {
  const [pendingId, setPendingId] = useState<string | null>(null);
  const apply = useAtomCallback(
    useCallback(
      (get, set, id: string, answer: WriteAnswer) => {
        const position = answer.position - 0.5;
        const row = get(usersStore.stateAtom).rows.get(id);
        if (patch === 'remove') set(usersStore.applyAtom, { op: 'remove', id, position });
        else if (row) set(usersStore.applyAtom, { op: 'upsert', id, row: { ...row, ...patch }, position });
      },
      [patch],
    ),
  );
  const run = useCallback(
    async (id: string) => {
      setPendingId(id);
      try {
        apply(id, await call(id));
        toast.success(successText);
      } catch (error) {
        console.error(error);
        toast.error(errorMessage(error));
      } finally {
        setPendingId(null);
      }
    },
    [apply, call, successText],
  );
  return { run, pendingId };
}
