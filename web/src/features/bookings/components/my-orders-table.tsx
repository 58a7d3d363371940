import { Button, Space } from 'antd';
import { CANCEL_REASON_TEXT, MAX_OWN_CANCELLATIONS, type Booking } from '@tv-shop/contracts';
import { useNavigate } from 'react-router-dom';
import { ConfirmAction } from '@/components/ui/confirm-action';
import { StackTable } from '@/components/ui/stack-table';
import { EmptyText } from '@/components/ui/empty-text';
import { RowAvatar } from '@/components/ui/row-avatar';
import { paths } from '@/config/paths';
import { formatTk } from '@/lib/format';
import { useCancelBooking } from '../api/cancel-booking';
import { BookingStatus } from './booking-status';
import { SellerContact } from './seller-contact';

/**
 * What a cancellation leaves: the buyer may book the TV again, unless this is the last of their own
 * cancellations of it the shop allows (ADR 0076); the history holds each earlier placing.
 */
function afterCancelling(bookings: Booking[], productId: string): string {
  const own = bookings.filter((b) => b.product_id === productId && b.cancel_reason === CANCEL_REASON_TEXT['buyer-cancelled']).length;
  return own + 1 >= MAX_OWN_CANCELLATIONS
    ? `The seller sees it cancelled. This is your ${MAX_OWN_CANCELLATIONS}th cancellation of this TV: you will not be able to book it again.`
    : 'The seller sees it cancelled. You can book the TV again while it is for sale.';
}

export function MyOrdersTable({ bookings }: { bookings: Booking[] }) {
  const navigate = useNavigate();
  const cancel = useCancelBooking();
  if (bookings.length === 0) return <EmptyText>No Order Available</EmptyText>;

  return (
    <StackTable<Booking>
      rowKey="_id"
      dataSource={bookings}
      rowClassName={(row) => (row.status === 'cancelled' ? 'booking-row--cancelled' : '')}
      columns={[
        { title: 'SL NO.', key: 'sl', render: (_, __, index) => index + 1 },
        { title: 'Name', dataIndex: 'username' },
        {
          title: 'Avatar',
          key: 'avatar',
          render: (_, row) => <RowAvatar src={row.productThumbnail || row.productImage} alt={row.porduct_name} of="tv" />,
        },
        {
          title: 'Items',
          key: 'items',
          // Whom to call for the TV while it is booked or bought; a cancelled booking has no one to meet.
          render: (_, row) =>
            row.status === 'cancelled' ? (
              row.porduct_name
            ) : (
              <span className="order-item">
                <span>{row.porduct_name}</span>
                <SellerContact booking={row} />
              </span>
            ),
        },
        { title: 'Meeting Location', dataIndex: 'meeting_location' },
        { title: 'Price (TK)', key: 'price', className: 'cell-nowrap', render: (_, row) => formatTk(row.price) },
        {
          title: 'Payment',
          key: 'payment',
          // A cancelled booking stays in the history with its reason, and can never be paid.
          render: (_, row) =>
            row.status === 'open' ? (
              <Space wrap size={[8, 4]}>
                <Button type="primary" size="small" onClick={() => void navigate(paths.dashboard.payment.href(row._id))}>
                  Pay
                </Button>
                <ConfirmAction
                  title={`Cancel your booking of ${row.porduct_name}?`}
                  description={afterCancelling(bookings, row.product_id)}
                  okText="Cancel booking"
                  cancelText="Keep it"
                  okButtonProps={{ danger: true }}
                  onConfirm={() => void cancel.run(row._id)}
                >
                  <Button size="small" loading={cancel.isPending(row._id)} aria-label={`Cancel booking of ${row.porduct_name}`}>
                    Cancel
                  </Button>
                </ConfirmAction>
              </Space>
            ) : (
              // Its buttons go once it is cancelled or paid: the focus moves to what the row says now (use-kept-focus.ts).
              <span className="booking-outcome" data-row-focus tabIndex={-1}>
                <BookingStatus booking={row} />
                {/* Money that came back for a payment that bought nothing (it came after the cancellation). */}
                {row.refunded ? <span className="booking-refunded">{formatTk(row.refunded)} refunded to your card</span> : null}
              </span>
            ),
        },
      ]}
    />
  );
}
