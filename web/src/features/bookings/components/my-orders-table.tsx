import { Button } from 'antd';
import type { Booking } from '@tv-shop/contracts';
import { useNavigate } from 'react-router-dom';
import { StackTable } from '@/components/ui/stack-table';
import { EmptyText } from '@/components/ui/empty-text';
import { RowAvatar } from '@/components/ui/row-avatar';
import { paths } from '@/config/paths';
import { formatTk } from '@/lib/format';
import { BookingStatus } from './booking-status';

export function MyOrdersTable({ bookings }: { bookings: Booking[] }) {
  const navigate = useNavigate();
  if (bookings.length === 0) return <EmptyText>No Order Available</EmptyText>;
  return (
    <StackTable<Booking>
      rowKey="_id"
      dataSource={bookings}
      rowClassName={(row) => (row.status === 'cancelled' ? 'booking-row--cancelled' : '')}
      columns={[
        { title: 'SL NO.', key: 'sl', render: (_, __, index) => index + 1 },
        { title: 'Name', dataIndex: 'username' },
        { title: 'Avatar', key: 'avatar', render: (_, row) => <RowAvatar src={row.productImage} alt={row.porduct_name} of="tv" /> },
        { title: 'Items', dataIndex: 'porduct_name' },
        { title: 'Meeting Location', dataIndex: 'meeting_location' },
        { title: 'Price (TK)', key: 'price', className: 'cell-nowrap', render: (_, row) => formatTk(row.price) },
        {
          title: 'Payment',
          key: 'payment',
          // A cancelled booking stays in the history with its reason, and can never be paid.
          render: (_, row) =>
            row.status === 'open' ? (
              <Button type="primary" size="small" onClick={() => void navigate(paths.dashboard.payment.href(row._id))}>
                Pay
              </Button>
            ) : (
              <BookingStatus booking={row} />
            ),
        },
      ]}
    />
  );
}
