import { Tag } from 'antd';
import { CANCEL_REASON_TEXT, cancelReasonText, type Booking } from '@tv-shop/contracts';

/** Why, as the seller reads it where the read model's words speak to the buyer. */
const TO_THE_SELLER: Record<string, string> = {
  [CANCEL_REASON_TEXT['listing-edited']]: 'you changed the listing; the buyer was told',
  [CANCEL_REASON_TEXT['product-marked-sold']]: 'you marked it sold',
  [cancelReasonText('product-removed', 'withdrawn')]: 'you took the listing off TV Shop',
};

/**
 * Open, Paid or Cancelled (with why), in words a colour-blind reader gets too, and addressed to
 * whoever reads it: the buyer (My Orders) or the seller (My Bookings).
 */
export function BookingStatus({ booking, reader = 'buyer' }: { booking: Booking; reader?: 'buyer' | 'seller' }) {
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
        {booking.cancel_reason ? (
          <span className="booking-cancelled__reason">
            {(reader === 'seller' && TO_THE_SELLER[booking.cancel_reason]) || booking.cancel_reason}
          </span>
        ) : null}
      </span>
    );
  return (
    <Tag color="blue" className="open-label">
      Waiting for payment
    </Tag>
  );
}
