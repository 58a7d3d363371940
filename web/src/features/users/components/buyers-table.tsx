import { Table } from 'antd';
import type { User } from '@tv-shop/contracts';
import { EmptyText } from '@/components/ui/empty-text';
import { useDeleteUser } from '../api/delete-user';
import { deleteColumn, identityColumns } from './user-columns';

export function BuyersTable({ buyers }: { buyers: User[] }) {
  const remove = useDeleteUser();
  if (buyers.length === 0) return <EmptyText>No Buyer Available</EmptyText>;
  return (
    <Table<User>
      rowKey="_id"
      dataSource={buyers}
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={[...identityColumns, { title: 'Role', dataIndex: 'role' }, deleteColumn(remove)]}
    />
  );
}
