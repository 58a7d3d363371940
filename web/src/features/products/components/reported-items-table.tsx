import { Button, Space, Tag } from 'antd';
import { CheckOutlined, DeleteOutlined } from '@ant-design/icons';
import type { ReportedProduct } from '@tv-shop/contracts';
import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmAction } from '@/components/ui/confirm-action';
import { StackTable } from '@/components/ui/stack-table';
import { EmptyText } from '@/components/ui/empty-text';
import { paths } from '@/config/paths';
import { RowAvatar } from '@/components/ui/row-avatar';
import { formatTk } from '@/lib/format';
import { useDeleteProduct } from '../api/delete-product';
import { useDismissReports } from '../api/dismiss-reports';
import { coverThumbnail } from '../photos';

const when = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** Who reported the listing and why, one line each; older reports may have no reason. */
function Reports({ product }: { product: ReportedProduct }) {
  if (product.reports.length === 0) return <Tag color="orange">Report Claimed</Tag>;
  return (
    <ul className="report-list" aria-label={`Reports of ${product.porduct_name}`}>
      {product.reports.map((r, i) => (
        <li key={`${r.by_name}-${r.at}-${i}`}>
          <strong>{r.by_name || 'A buyer'}</strong> <time dateTime={r.at}>{when(r.at)}</time>
          <span className="report-list__reason">{r.reason ? `“${r.reason}”` : 'No reason given'}</span>
        </li>
      ))}
    </ul>
  );
}

export function ReportedItemsTable({ products }: { products: ReportedProduct[] }) {
  const remove = useDeleteProduct();
  const dismiss = useDismissReports(useCallback((id: string) => products.find((p) => p._id === id)?.reports.length ?? 0, [products]));

  if (products.length === 0) return <EmptyText>No Reported Items Available.</EmptyText>;

  return (
    <StackTable<ReportedProduct>
      rowKey="_id"
      dataSource={products}
      columns={[
        { title: 'SL NO.', key: 'sl', render: (_, __, index) => index + 1 },
        { title: 'Avatar', key: 'avatar', render: (_, row) => <RowAvatar src={coverThumbnail(row)} alt={row.porduct_name} of="tv" /> },
        {
          title: 'Product',
          key: 'product',
          // The admin judges a report against the listing as buyers see it.
          render: (_, row) => <Link to={paths.product.href(row._id)}>{row.porduct_name}</Link>,
        },
        { title: 'Price', key: 'price', className: 'cell-nowrap', render: (_, row) => formatTk(row.resale_price) },
        { title: 'Reports', key: 'report', render: (_, row) => <Reports product={row} /> },
        {
          title: 'Action',
          key: 'action',
          render: (_, row) => (
            <Space wrap>
              <ConfirmAction
                title={`Delete ${row.porduct_name}?`}
                description="It leaves the shop for good, and the unpaid bookings of it are cancelled."
                okText="Delete"
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.run(row._id)}
              >
                <Button danger icon={<DeleteOutlined />} aria-label={`Delete ${row.porduct_name}`} loading={remove.pendingId === row._id} />
              </ConfirmAction>
              {/* The admin found nothing wrong: the listing stays, its reports are set aside (they stay in the log). */}
              <ConfirmAction
                title={`Keep ${row.porduct_name}?`}
                description="Its reports are dismissed and it stays in the shop; buyers may report it again."
                okText="Dismiss reports"
                onConfirm={() => dismiss.run(row._id)}
              >
                <Button
                  icon={<CheckOutlined />}
                  aria-label={`Dismiss the reports of ${row.porduct_name}`}
                  loading={dismiss.pendingId === row._id}
                >
                  Dismiss
                </Button>
              </ConfirmAction>
            </Space>
          ),
        },
      ]}
    />
  );
}
