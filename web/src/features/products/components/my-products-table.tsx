import { Button, Space } from 'antd';
import type { Product } from '@tv-shop/contracts';
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router-dom';
import { ConfirmAction } from '@/components/ui/confirm-action';
import { StackTable } from '@/components/ui/stack-table';
import { EmptyText } from '@/components/ui/empty-text';
import { paths } from '@/config/paths';
import { RowAvatar } from '@/components/ui/row-avatar';
import { ApiError, errorMessage, logFailure } from '@/lib/api-client';
import { usePendingRows } from '@/lib/use-row-action';
import { formatTk } from '@/lib/format';
import { useAdvertiseProduct } from '../api/advertise-product';
import { useWithdrawProduct } from '../api/withdraw-product';
import { markProductAvailable } from '../api/mark-product-available';
import { useMarkProductSold } from '../api/mark-product-sold';
import { useRemoveProductAdvertising } from '../api/remove-product-advertising';
import { coverThumbnail } from '../photos';
import { usePatchProduct } from '../use-patch-product';
import { StatusBadge } from './status-badge';
import { CloseIcon } from '@/components/ui/icons';
import { Notice } from '@/components/ui/notice';

/**
 * Make Available, whose refusal at the listing limit (429, ADR 0035) is a sentence the seller has
 * to act on (mark another TV sold first): it stays above the table until dismissed, or until a
 * TV is made available after all. Success and other failures are the usual toasts.
 */
function useMakeAvailable() {
  const patchProduct = usePatchProduct();
  const { start, finish, isPending } = usePendingRows();
  const [refusal, setRefusal] = useState<{ name: string; message: string } | null>(null);
  const run = useCallback(
    async (id: string, name: string) => {
      if (!start(id)) return;
      try {
        patchProduct(id, await markProductAvailable(id), { sold: false });
        setRefusal(null);
        toast.success('Status Change Successfully');
      } catch (error) {
        logFailure(error);
        // Kept above the list, and said where the seller is too: the row pressed may be far below it.
        if (error instanceof ApiError && error.status === 429) {
          setRefusal({ name, message: errorMessage(error) });
          toast.error(`${name} could not be made available. ${errorMessage(error)}`);
        } else toast.error(errorMessage(error));
      } finally {
        finish(id);
      }
    },
    [patchProduct, start, finish],
  );
  return { run, isPending, refusal, dismiss: useCallback(() => setRefusal(null), []) };
}

/**
 * A seller's listings; each toggle shows only the button for the row's current state. `buyers`
 * names who paid for each TV sold here (from the seller's bookings): a paid sale is final, so
 * such a row says who bought it instead of offering Make Available. `openBookings` counts the
 * unpaid bookings of each TV: Make Sold cancels them, so on such a row it asks first, and on
 * every row while the bookings are not known (not read yet, or their read failed).
 */
export function MyProductsTable({
  products,
  buyers,
  openBookings = new Map(),
  bookingsKnown = true,
}: {
  products: Product[];
  buyers: ReadonlyMap<string, string>;
  openBookings?: ReadonlyMap<string, number>;
  bookingsKnown?: boolean;
}) {
  const sold = useMarkProductSold();
  const available = useMakeAvailable();
  const advertise = useAdvertiseProduct();
  const unadvertise = useRemoveProductAdvertising();
  const withdraw = useWithdrawProduct();
  const navigate = useNavigate();
  return (
    <div className="my-products">
      {available.refusal ? (
        <Notice
          className="my-products__refusal"
          type="error"
          role="alert"
          title={`${available.refusal.name} could not be made available.`}
          description={available.refusal.message}
          action={
            <button type="button" className="notice__close" aria-label="Close" onClick={available.dismiss}>
              <CloseIcon />
            </button>
          }
        />
      ) : null}
      {products.length === 0 ? (
        <EmptyText>No Product Available.Please Add Products.</EmptyText>
      ) : (
        <StackTable<Product>
          rowKey="_id"
          dataSource={products}
          columns={[
            { title: 'SL NO.', key: 'sl', render: (_, __, index) => index + 1 },
            { title: 'Avatar', key: 'avatar', render: (_, row) => <RowAvatar src={coverThumbnail(row)} alt={row.porduct_name} of="tv" /> },
            { title: 'Product Name', dataIndex: 'porduct_name' },
            { title: 'Price', key: 'price', className: 'cell-nowrap', render: (_, row) => formatTk(row.resale_price) },
            {
              title: 'Change Status',
              key: 'change',
              render: (_, row) =>
                row.paid_sale ? (
                  // What the row says once paid for, where the focus goes from its buttons (use-kept-focus.ts).
                  <span className="sold-to" data-row-focus tabIndex={-1}>
                    Sold to {buyers.get(row._id) ?? 'a buyer'}
                  </span>
                ) : row.sold ? (
                  <Button
                    size="small"
                    onClick={() => void available.run(row._id, row.porduct_name)}
                    loading={available.isPending(row._id)}
                    aria-label={`Make Available: ${row.porduct_name}`}
                  >
                    Make Available
                  </Button>
                ) : openBookings.get(row._id) || !bookingsKnown ? (
                  <ConfirmAction
                    title={`Mark ${row.porduct_name} sold?`}
                    description={
                      bookingsKnown
                        ? `${openBookings.get(row._id) === 1 ? 'A buyer booked it and has' : `${openBookings.get(row._id)} buyers booked it and have`} not paid: their booking is cancelled. You can make it available again.`
                        : 'Your bookings could not be read just now: if buyers booked it and have not paid, their bookings are cancelled. You can make it available again.'
                    }
                    okText="Make Sold"
                    onConfirm={() => sold.run(row._id)}
                  >
                    <Button size="small" loading={sold.isPending(row._id)} aria-label={`Make Sold: ${row.porduct_name}`}>
                      Make Sold
                    </Button>
                  </ConfirmAction>
                ) : (
                  <Button
                    size="small"
                    onClick={() => void sold.run(row._id)}
                    loading={sold.isPending(row._id)}
                    aria-label={`Make Sold: ${row.porduct_name}`}
                  >
                    Make Sold
                  </Button>
                ),
            },
            {
              title: 'Status',
              key: 'status',
              // Booked and waiting to be paid for: the seller sees it here, not only in My Bookings.
              render: (_, row) => {
                const booked = row.sold ? 0 : (openBookings.get(row._id) ?? 0);
                // One element: on a phone the cell is a grid of its label and its content.
                return (
                  <span className="my-products__status">
                    <StatusBadge sold={row.sold} />
                    {booked > 0 ? (
                      <span className="my-products__booked">
                        {booked === 1 ? 'Booked, not paid yet' : `${booked} bookings, not paid yet`}
                      </span>
                    ) : null}
                  </span>
                );
              },
            },
            {
              title: 'Action',
              key: 'action',
              render: (_, row) => (
                <Space wrap>
                  {row.advertised ? (
                    <Button
                      size="small"
                      danger
                      onClick={() => void unadvertise.run(row._id)}
                      loading={unadvertise.isPending(row._id)}
                      aria-label={`Remove Advertise: ${row.porduct_name}`}
                    >
                      Remove Advertise
                    </Button>
                  ) : row.sold || row.reported ? null : (
                    // A sold TV is off the market (the server ends its advertising too): nothing to
                    // advertise; nor one buyers reported, until the admin has reviewed it (ADR 0077).
                    <Button
                      size="small"
                      type="primary"
                      onClick={() => void advertise.run(row._id)}
                      loading={advertise.isPending(row._id)}
                      aria-label={`Advertise: ${row.porduct_name}`}
                    >
                      Advertise
                    </Button>
                  )}
                  {/* A sold TV is not edited, nor one buyers reported (the server refuses both; ADR 0057). */}
                  {row.sold || row.reported ? null : (
                    <Button
                      size="small"
                      onClick={() => void navigate(paths.dashboard.editProduct.href(row._id))}
                      aria-label={`Edit ${row.porduct_name}`}
                    >
                      Edit
                    </Button>
                  )}
                  {/* The server refuses to withdraw a TV a buyer paid for (the record of that sale) or
                    one buyers reported (the admin reviews it first). */}
                  {row.paid_sale ? (
                    // Nothing else is left to do with it: said, rather than an empty cell.
                    <span className="my-products__under-review">Paid: the sale is final</span>
                  ) : row.reported ? (
                    <span className="my-products__under-review" data-row-focus tabIndex={-1}>
                      Reported: the admin reviews it
                      {/* Its advertising stands, but Home leaves it out meanwhile (ADR 0077). */}
                      {row.advertised ? '; not on Home till then' : ''}
                    </span>
                  ) : (
                    <ConfirmAction
                      title={`Withdraw ${row.porduct_name}?`}
                      description="It leaves the shop for good; any unpaid bookings of it are cancelled."
                      okText="Withdraw"
                      okButtonProps={{ danger: true }}
                      onConfirm={() => void withdraw.run(row._id)}
                    >
                      <Button size="small" danger loading={withdraw.isPending(row._id)} aria-label={`Withdraw ${row.porduct_name}`}>
                        Withdraw
                      </Button>
                    </ConfirmAction>
                  )}
                </Space>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}
