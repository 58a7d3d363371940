import type { User } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useMemo } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useLoad } from '@/lib/use-load';
import { usersStore } from '../atoms';

export type ListedRole = 'Buyer' | 'Seller';

export const getUsersByRole = (role: ListedRole) => apiRequest<User[]>('/users_role', { query: { role } });

export function useUsersByRole(role: ListedRole) {
  const load = useSetAtom(usersStore.loadAtom);
  const ofRole = (u: User) => u.role === role;
  const state = useLoad(async () => load({ rows: await getUsersByRole(role), inScope: ofRole }), [role]);
  const { rows } = useAtomValue(usersStore.stateAtom);
  const users = useMemo(() => [...rows.values()].filter(ofRole), [rows, role]);
  return { users, ...state };
}
