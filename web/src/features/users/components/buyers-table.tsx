import { Table } from 'antd';
import type { User } from '@tv-shop/contracts';
import { EmptyText } from '@/components/ui/empty-text';
import { RowAvatar } from '@/components/ui/row-avatar';
import { useDeleteUser } from '../api/delete-user';
import { DeleteUserButton } from './delete-user-button';

export function BuyersTable({ buyers }: { buyers: User[] }) {
  const remove = useDeleteUser();
  if (buyers.length === 0) return <EmptyText>No Buyer Available</EmptyText>;
  return (
    <Table<User>
      rowKey="_id"
      dataSource={buyers}
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={[
        { title: 'SL NO.', key: 'sl', render: (_, __, index) => index + 1 },
        { title: 'Avatar', key: 'avatar', render: (_, row) => <RowAvatar src={row.photoURL} alt={row.name} /> },
        { title: 'Name', dataIndex: 'name' },
        { title: 'Email', dataIndex: 'email' },
        { title: 'Role', dataIndex: 'role' },
        {
          title: 'Action',
          key: 'action',
          render: (_, row) => <DeleteUserButton user={row} busy={remove.pendingId === row._id} onDelete={() => void remove.run(row._id)} />,
        },
      ]}
    />
  );
}
