import { Button, Popconfirm, Table, Tag } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import type { Product } from '@tv-shop/contracts';
import { EmptyText } from '@/components/ui/empty-text';
import { RowAvatar } from '@/components/ui/row-avatar';
import { formatTk } from '@/lib/format';
import { useDeleteProduct } from '../api/delete-product';

export function ReportedItemsTable({ products }: { products: Product[] }) {
  const remove = useDeleteProduct();

  if (products.length === 0) return <EmptyText>No Reported Items Available.</EmptyText>;

  return (
    <Table<Product>
      rowKey="_id"
      dataSource={products}
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={[
        { title: 'SL NO.', key: 'sl', render: (_, __, index) => index + 1 },
        { title: 'Avatar', key: 'avatar', render: (_, row) => <RowAvatar src={row.productImage} alt={row.porduct_name} /> },
        { title: 'Product', dataIndex: 'porduct_name' },
        { title: 'Price', key: 'price', render: (_, row) => formatTk(row.resale_price) },
        { title: 'Report', key: 'report', render: () => <Tag color="orange">Report Claimed</Tag> },
        {
          title: 'Action',
          key: 'action',
          render: (_, row) => (
            <Popconfirm title="Delete this product?" okText="Delete" okButtonProps={{ danger: true }} onConfirm={() => remove.run(row._id)}>
              <Button danger icon={<DeleteOutlined />} aria-label={`Delete ${row.porduct_name}`} loading={remove.pendingId === row._id} />
            </Popconfirm>
          ),
        },
      ]}
    />
  );
}
