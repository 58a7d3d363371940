import { Tag } from 'antd';
import type { Booking } from '@tv-shop/contracts';

/** Open, Paid or Cancelled (with why), in words a colour-blind reader gets too. */
export function BookingStatus({ booking }: { booking: Booking }) {
  if (booking.status === 'paid')
    return (
      <Tag color="green" className="paid-label">
        Paid
      </Tag>
    );
  if (booking.status === 'cancelled')
    return (
      <span className="booking-cancelled">
        <Tag className="cancelled-label">Cancelled</Tag>
        {booking.cancel_reason ? <span className="booking-cancelled__reason">{booking.cancel_reason}</span> : null}
      </span>
    );
  return (
    <Tag color="blue" className="open-label">
      Waiting for payment
    </Tag>
  );
}
