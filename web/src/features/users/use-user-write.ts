import type { User, WriteAnswer } from '@tv-shop/contracts';
import { useAtomCallback } from 'jotai/utils';
import { useCallback } from 'react';
import { useRowAction } from '@/lib/use-row-action';
import { usersStore } from './atoms';

/** One admin action on a user: call, toast, and patch the row just below the write's position. */
export function useUserWrite(call: (id: string) => Promise<WriteAnswer>, patch: Partial<User> | 'remove', successText: string) {
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
  const action = useCallback(async (id: string) => apply(id, await call(id)), [apply, call]);
  return useRowAction(action, successText);
}
