import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LoadError } from '@/components/ui/load-error';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { Tag } from '@/components/ui/tag';
import { paths } from '@/config/paths';
import { useBooking } from '@/features/bookings/api/get-booking';
import { cancelledNotice } from '@/features/bookings/cancellation';
import { AfterPaying } from '@/features/bookings/components/seller-contact';
import { useMarkBookingPaid } from '@/features/bookings/use-mark-booking-paid';
import { PaymentForm } from '@/features/payments/components/payment-form';
import { formatTk } from '@/lib/format';
import { useSessionUser } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';
import { withAntd } from '@/lib/antd-theme';

/** Loads the booking first; then greets the buyer and offers the card form. */
function PaymentPageContent() {
  usePageTitle(paths.dashboard.payment.title);
  const { id = '' } = useParams();
  const user = useSessionUser();
  const { booking, cancelled, notFound, loading, error, retry } = useBooking(id);
  const markPaid = useMarkBookingPaid();
  // Whether it was paid before this visit, fixed on arrival: the push that turns it Paid while
  // the buyer pays here must not swap the form (and its success message) for the label.
  const [paidOnArrival, setPaidOnArrival] = useState<boolean | null>(null);
  useEffect(() => {
    if (booking && paidOnArrival === null) setPaidOnArrival(booking.paid);
  }, [booking, paidOnArrival]);

  if ((loading && !booking) || (booking && paidOnArrival === null)) return <Spinner />;
  if (notFound)
    return (
      <Notice
        className="load-error"
        type="info"
        role="status"
        title="There is no such booking of yours."
        description={
          <>
            Your bookings are in <Link to={paths.dashboard.myOrders.href()}>My Orders</Link>.
          </>
        }
      />
    );
  if (!booking || !user) return <LoadError what="booking" error={error ?? 'Booking not found.'} onRetry={retry} />;
  return (
    <section aria-labelledby="payment-heading" className="payment-page">
      <h1 id="payment-heading" className="dashboard__title">
        Hello, {booking.username}
      </h1>
      {/* Asked for only while there is something to pay. */}
      <p className="payment-page__amount">
        {cancelled && !booking.paid ? (
          <>
            Your booking of <strong>{booking.porduct_name}</strong> at <strong>{formatTk(booking.price)}</strong> was cancelled.
          </>
        ) : (
          <>
            {booking.paid ? 'You paid ' : 'Please pay '}
            <strong>{formatTk(booking.price)}</strong> for <strong>{booking.porduct_name}</strong>.
          </>
        )}
      </p>
      {paidOnArrival ? (
        <>
          <p>
            This booking is{' '}
            <Tag color="green" className="paid-label">
              Paid
            </Tag>
          </p>
          {/* As the payment's success said it, for a buyer who comes back to it. */}
          {booking.transationId ? (
            <p>
              Your transaction id: <code className="transaction-id">{booking.transationId}</code>
            </p>
          ) : null}
          <AfterPaying booking={booking} />
          <p>
            <Link to={paths.dashboard.myOrders.href()}>Back to My Orders</Link>
          </p>
        </>
      ) : (
        <PaymentForm
          booking={booking}
          payer={{ name: user.name, email: user.email }}
          closedReason={cancelled ? cancelledNotice(booking) : null}
          afterPaid={<AfterPaying booking={booking} />}
          onPaid={(answer, transactionId) => markPaid(booking._id, answer, transactionId)}
        />
      )}
      {cancelled && !booking.paid ? (
        // The notice says to book it again from its page (or the page says why it is gone).
        <p>
          <Link to={paths.product.href(booking.product_id)}>Go to {booking.porduct_name}</Link>
        </p>
      ) : null}
    </section>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const PaymentPage = withAntd(PaymentPageContent);
