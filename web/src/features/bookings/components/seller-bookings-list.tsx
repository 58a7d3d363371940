import type { Booking } from '@tv-shop/contracts';
import { EmptyText } from '@/components/ui/empty-text';
import { RowAvatar } from '@/components/ui/row-avatar';
import { PhoneLink } from '@/components/ui/phone-link';
import { formatTk } from '@/lib/format';
import { BookingStatus } from './booking-status';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/**
 * Who is coming for the seller's TVs. A table on wide screens; on a phone each booking is a
 * card (CSS switches), so nothing is cut off and the phone number is one tap away.
 */
export function SellerBookingsList({ bookings }: { bookings: Booking[] }) {
  if (bookings.length === 0) return <EmptyText>No bookings yet. When a buyer books one of your TVs, it shows here.</EmptyText>;
  return (
    <ul className="seller-bookings" aria-label="Bookings of your TVs">
      <li className="seller-bookings__head" aria-hidden="true">
        <span>TV</span>
        <span>Buyer</span>
        <span>Phone</span>
        <span>Meeting place</span>
        <span>Booked</span>
        <span>Status</span>
      </li>
      {bookings.map((b) => (
        <li key={b._id} className={`seller-booking seller-booking--${b.status}`} data-booking-id={b._id}>
          <span className="seller-booking__tv">
            <RowAvatar src={b.productThumbnail || b.productImage} alt={b.porduct_name} of="tv" />
            <span>
              <strong>{b.porduct_name}</strong>
              <span className="seller-booking__price">{formatTk(b.price)}</span>
            </span>
          </span>
          <span className="seller-booking__buyer">
            <span className="seller-booking__label">Buyer </span>
            {b.username}
          </span>
          <span>
            <span className="seller-booking__label">Phone </span>
            {/* A closed account's bookings keep nothing of how to reach its buyer (ADR 0075). */}
            {b.phone_number ? <PhoneLink phone={b.phone_number} /> : <span className="seller-booking__gone">account closed</span>}
          </span>
          <span>
            <span className="seller-booking__label">Meeting place </span>
            {b.meeting_location || <span className="seller-booking__gone">account closed</span>}
          </span>
          <span>
            <span className="seller-booking__label">Booked </span>
            <time dateTime={b.booked_at}>{when(b.booked_at)}</time>
          </span>
          <span>
            <BookingStatus booking={b} reader="seller" />
          </span>
        </li>
      ))}
    </ul>
  );
}
