import type { Booking } from '@tv-shop/contracts';
import { PhoneLink } from '@/components/ui/phone-link';

/** The seller's number as a link that dials it, named for whom it calls. */
const CallSeller = ({ booking }: { booking: Booking }) => (
  <PhoneLink phone={booking.seller_phone ?? ''} of={booking.seller_name || 'the seller'} />
);

/**
 * Whom the buyer of a booked or bought TV calls to meet, and the number: one tap on a phone.
 * Nothing when the shop has neither (a closed account, or a TV whose listing it never saw).
 */
export function SellerContact({ booking }: { booking: Booking }) {
  if (!booking.seller_phone) return booking.seller_name ? <span className="seller-contact">Seller: {booking.seller_name}</span> : null;
  return (
    <span className="seller-contact">
      {booking.seller_name ? `Seller: ${booking.seller_name}, ` : "Seller's phone: "}
      <CallSeller booking={booking} />
    </span>
  );
}

/**
 * What the buyer does once a TV is paid for: the seller sees the payment with the buyer's phone
 * and the meeting place the buyer gave, and the buyer may call them. Nothing when the shop has
 * no way to reach the seller (their account was closed).
 */
export function AfterPaying({ booking }: { booking: Booking }) {
  if (!booking.seller_name && !booking.seller_phone) return null;
  return (
    <div className="after-paying">
      <h3 className="after-paying__title">What happens next</h3>
      <p>
        {booking.seller_name || 'The seller'} sees your payment in their bookings, with your phone number ({booking.phone_number}) and where
        you want to meet: {booking.meeting_location}.
      </p>
      {booking.seller_phone ? (
        <p>
          To arrange the handover, call {booking.seller_name || 'them'} on <CallSeller booking={booking} />.
        </p>
      ) : null}
    </div>
  );
}
