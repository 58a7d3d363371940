import type { User, WriteAnswer } from '@tv-shop/contracts';
import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { useRowAction } from '@/lib/use-row-action';
import { usersStore } from './atoms';

/** One admin action on a user: call, toast, and patch the row at once (see the entity store's patch). */
export function useUserWrite(call: (id: string) => Promise<WriteAnswer>, patch: Partial<User> | 'remove', successText: string) {
  const apply = useSetAtom(usersStore.patchAtom);
  const action = useCallback(async (id: string) => apply(id, (await call(id)).position, patch), [apply, call, patch]);
  return useRowAction(action, successText);
}
