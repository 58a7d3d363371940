import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useMyBookings } from '@/features/bookings/api/get-my-bookings';
import { MyOrdersTable } from '@/features/bookings/components/my-orders-table';
import { useSessionUser } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';

export function MyOrdersPage() {
  usePageTitle(paths.dashboard.myOrders.title);
  const user = useSessionUser();
  const { bookings, loading } = useMyBookings(user?.email ?? '');
  return (
    <section aria-labelledby="orders-heading">
      <h1 id="orders-heading" className="dashboard__title">
        My Orders
      </h1>
      {loading ? <Spinner /> : <MyOrdersTable bookings={bookings} />}
    </section>
  );
}
