import type { User } from '@tv-shop/contracts';
import { RowAvatar } from '@/components/ui/row-avatar';
import type { StackColumn } from '@/components/ui/stack-table';
import type { useDeleteUser } from '../api/delete-user';
import { DeleteUserButton } from './delete-user-button';

/** The columns the admin's buyer and seller tables share (spec section 2). */
export const identityColumns: StackColumn<User>[] = [
  { title: 'SL NO.', key: 'sl', render: (_, __, index) => index + 1 },
  { title: 'Avatar', key: 'avatar', render: (_, row) => <RowAvatar src={row.photoURL} alt={row.name} /> },
  { title: 'Name', dataIndex: 'name' },
  { title: 'Email', dataIndex: 'email' },
];

export const deleteColumn = (remove: ReturnType<typeof useDeleteUser>): StackColumn<User> => ({
  title: 'Action',
  key: 'action',
  render: (_, row) => <DeleteUserButton user={row} busy={remove.isPending(row._id)} onDelete={() => void remove.run(row._id)} />,
});
