import { Button, Tag } from 'antd';
import type { User } from '@tv-shop/contracts';
import { StackTable } from '@/components/ui/stack-table';
import { EmptyText } from '@/components/ui/empty-text';
import { useDeleteUser } from '../api/delete-user';
import { useVerifySeller } from '../api/verify-seller';
import { deleteColumn, identityColumns } from './user-columns';

/** Approve shows only for pending sellers; afterwards the cell reads 'Approved'. */
export function SellersTable({ sellers }: { sellers: User[] }) {
  const verify = useVerifySeller();
  const remove = useDeleteUser();
  if (sellers.length === 0) return <EmptyText>No Seller Available</EmptyText>;
  return (
    <StackTable<User>
      rowKey="_id"
      dataSource={sellers}
      columns={[
        ...identityColumns,
        {
          title: 'Approve',
          key: 'approve',
          render: (_, row) =>
            row.verified ? (
              // Where the focus goes from Verify (use-kept-focus.ts).
              <span className="approved-text" data-row-focus tabIndex={-1}>
                Approved
              </span>
            ) : (
              <Button
                size="small"
                type="primary"
                aria-label={`Verify ${row.name}`}
                onClick={() => void verify.run(row._id)}
                loading={verify.isPending(row._id)}
              >
                Verify
              </Button>
            ),
        },
        {
          title: 'Status',
          key: 'status',
          render: (_, row) => (row.verified ? <Tag color="green">Verified</Tag> : <Tag color="gold">Pending...</Tag>),
        },
        deleteColumn(remove),
      ]}
    />
  );
}
