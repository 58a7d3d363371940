import { Button, Space, Tag } from 'antd';
import { CheckOutlined, DeleteOutlined } from '@ant-design/icons';
import type { ReportedProduct } from '@tv-shop/contracts';
import { useCallback, useRef } from 'react';
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

/**
 * `reread` reads the list again: after a refusal (another admin removed the listing or kept it, a
 * report or a payment came, in a tab whose live connection was down), the row as shown is stale.
 * Not after a failure (an outage, the shop out of reach): that read would fail too, and say so
 * again; what changes meanwhile comes by push, or in the read made when the live connection is back.
 */
export function ReportedItemsTable({ products, reread }: { products: ReportedProduct[]; reread: () => void }) {
  // Whether the Delete question the admin confirms says a buyer had paid (it is the row as shown):
  // the server refuses when that changed since (a stale tab), as when the reports were dismissed meanwhile.
  const remove = useDeleteProduct(useCallback((id: string) => products.some((p) => p._id === id && p.paid_sale), [products]));
  // The reports the admin was shown as the question opened, not as it is answered: one pushed
  // while it was open was not read, so it is not dismissed (the server answers 409).
  const shown = useRef(new Map<string, number>());
  const dismiss = useDismissReports(useCallback((id: string) => shown.current.get(id) ?? 0, []));

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
        {
          title: 'Price',
          key: 'price',
          className: 'cell-nowrap',
          // Whether a buyer already paid: the Delete question says what removing it then means.
          render: (_, row) => (
            <>
              {formatTk(row.resale_price)}
              {row.paid_sale ? <div>Sold: a buyer paid</div> : row.sold ? <div>Sold</div> : null}
            </>
          ),
        },
        { title: 'Reports', key: 'report', render: (_, row) => <Reports product={row} /> },
        {
          title: 'Action',
          key: 'action',
          render: (_, row) => (
            <Space wrap>
              <ConfirmAction
                title={`Delete ${row.porduct_name}?`}
                description={
                  row.paid_sale
                    ? 'A buyer has paid for it: their order and payment stay as they are (TV Shop makes no refund), and the listing leaves the shop for good.'
                    : 'It leaves the shop for good, and the unpaid bookings of it are cancelled.'
                }
                okText="Delete"
                okButtonProps={{ danger: true }}
                onConfirm={() => void remove.run(row._id).then((outcome) => outcome === 'refused' && reread())}
              >
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`Delete ${row.porduct_name}`}
                  loading={remove.isPending(row._id)}
                  // One answer per listing at a time: not deleted while its reports are being dismissed.
                  disabled={dismiss.isPending(row._id)}
                />
              </ConfirmAction>
              {/* The admin found nothing wrong: the listing stays, its reports are set aside (they stay in the log). */}
              <ConfirmAction
                title={`Keep ${row.porduct_name}?`}
                description="Its reports are dismissed and it stays in the shop; buyers may report it again."
                okText="Dismiss reports"
                onOpen={() => shown.current.set(row._id, row.reports_taken)}
                onConfirm={() => void dismiss.run(row._id).then((outcome) => outcome === 'refused' && reread())}
              >
                <Button
                  icon={<CheckOutlined />}
                  aria-label={`Dismiss the reports of ${row.porduct_name}`}
                  loading={dismiss.isPending(row._id)}
                  disabled={remove.isPending(row._id)}
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
