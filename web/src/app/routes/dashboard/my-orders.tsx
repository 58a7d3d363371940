import { Loaded } from '@/components/ui/load-error';
import { paths } from '@/config/paths';
import { useMyBookings } from '@/features/bookings/api/get-my-bookings';
import { MyOrdersTable } from '@/features/bookings/components/my-orders-table';
import { useCancelledBookingToast } from '@/features/bookings/cancellation';
import { useSessionUser } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';

export function MyOrdersPage() {
  usePageTitle(paths.dashboard.myOrders.title);
  const email = useSessionUser()?.email ?? '';
  const { bookings, loading, error, retry } = useMyBookings(email);
  useCancelledBookingToast(email);
  return (
    <section aria-labelledby="orders-heading">
      <h1 id="orders-heading" className="dashboard__title">
        My Orders
      </h1>
      <Loaded loading={loading} error={error} retry={retry} what="orders">
        <MyOrdersTable bookings={bookings} />
      </Loaded>
    </section>
  );
}
