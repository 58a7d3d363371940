import type { User } from '@tv-shop/contracts';
import { StackTable } from '@/components/ui/stack-table';
import { EmptyText } from '@/components/ui/empty-text';
import { useDeleteUser } from '../api/delete-user';
import { deleteColumn, identityColumns } from './user-columns';

export function BuyersTable({ buyers }: { buyers: User[] }) {
  const remove = useDeleteUser();
  if (buyers.length === 0) return <EmptyText>No Buyer Available</EmptyText>;
  return (
    <StackTable<User>
      rowKey="_id"
      dataSource={buyers}
      columns={[...identityColumns, { title: 'Role', dataIndex: 'role' }, deleteColumn(remove)]}
    />
  );
}
