import type { Role, User } from '@tv-shop/contracts';
import { useCallback, useMemo } from 'react';
import { apiRead } from '@/lib/api-client';
import { useLiveList } from '@/lib/use-live-list';
import { usersStore } from '../atoms';

/** The admin lists buyers and sellers; `GET /users_role` refuses any other role. */
export type ListedRole = Exclude<Role, 'Admin'>;

export const getUsersByRole = (role: ListedRole) => apiRead<User[]>('/users_role', { query: { role } });

export function useUsersByRole(role: ListedRole) {
  const fetchList = useCallback(() => getUsersByRole(role), [role]);
  const ofRole = useMemo(() => (u: User) => u.role === role, [role]);
  const { items, ...state } = useLiveList(usersStore, fetchList, ofRole);
  return { users: items, ...state };
}
