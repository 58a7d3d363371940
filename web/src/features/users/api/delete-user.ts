import type { WriteAnswer } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { useUserWrite } from '../use-user-write';

export const deleteUser = (id: string) => apiRequest<WriteAnswer>(`/users/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const useDeleteUser = () => useUserWrite(deleteUser, 'remove', 'Successfully Delete User');
