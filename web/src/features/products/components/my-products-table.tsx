import { Button, Space, Table } from 'antd';
import type { Product } from '@tv-shop/contracts';
import { EmptyText } from '@/components/ui/empty-text';
import { RowAvatar } from '@/components/ui/row-avatar';
import { formatTk } from '@/lib/format';
import { useAdvertiseProduct } from '../api/advertise-product';
import { useMarkProductAvailable } from '../api/mark-product-available';
import { useMarkProductSold } from '../api/mark-product-sold';
import { useRemoveProductAdvertising } from '../api/remove-product-advertising';
import { coverThumbnail } from '../photos';
import { StatusBadge } from './status-badge';

/** A seller's listings; each toggle shows only the button for the row's current state. */
/**
 * `buyers` names who paid for each TV sold here (from the seller's bookings): a paid sale is
 * final, so such a row says who bought it instead of offering Make Available.
 */
export function MyProductsTable({ products, buyers }: { products: Product[]; buyers: ReadonlyMap<string, string> }) {
  const sold = useMarkProductSold();
  const available = useMarkProductAvailable();
  const advertise = useAdvertiseProduct();
  const unadvertise = useRemoveProductAdvertising();

  if (products.length === 0) return <EmptyText>No Product Available.Please Add Products.</EmptyText>;

  return (
    <Table<Product>
      rowKey="_id"
      dataSource={products}
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={[
        { title: 'SL NO.', key: 'sl', render: (_, __, index) => index + 1 },
        { title: 'Avatar', key: 'avatar', render: (_, row) => <RowAvatar src={coverThumbnail(row)} alt={row.porduct_name} /> },
        { title: 'Product Name', dataIndex: 'porduct_name' },
        { title: 'Price', key: 'price', render: (_, row) => formatTk(row.resale_price) },
        {
          title: 'Change Status',
          key: 'change',
          render: (_, row) =>
            row.paid_sale ? (
              <span className="sold-to">Sold to {buyers.get(row._id) ?? 'a buyer'}</span>
            ) : row.sold ? (
              <Button size="small" onClick={() => void available.run(row._id)} loading={available.pendingId === row._id}>
                Make Available
              </Button>
            ) : (
              <Button size="small" onClick={() => void sold.run(row._id)} loading={sold.pendingId === row._id}>
                Make Sold
              </Button>
            ),
        },
        { title: 'Status', key: 'status', render: (_, row) => <StatusBadge sold={row.sold} /> },
        {
          title: 'Action',
          key: 'action',
          render: (_, row) => (
            <Space>
              {row.advertised ? (
                <Button size="small" danger onClick={() => void unadvertise.run(row._id)} loading={unadvertise.pendingId === row._id}>
                  Remove Advertise
                </Button>
              ) : (
                <Button
                  size="small"
                  type="primary"
                  // A sold TV is off the market; the server ends its advertising too.
                  disabled={row.sold}
                  onClick={() => void advertise.run(row._id)}
                  loading={advertise.pendingId === row._id}
                >
                  Advertise
                </Button>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
