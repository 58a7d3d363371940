import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useMyBookings } from '@/features/bookings/api/get-my-bookings';
import { MyOrdersTable } from '@/features/bookings/components/my-orders-table';
import { useCancelledBookingToast } from '@/features/bookings/cancellation';
import { useSessionUser } from '@/lib/session';

export function MyOrdersPage() {
  const email = useSessionUser()?.email ?? '';
  const { bookings, ...list } = useMyBookings(email);
  useCancelledBookingToast(email);
  return (
    <DashboardPage title={paths.dashboard.myOrders.title} what="orders" list={list}>
      <MyOrdersTable bookings={bookings} />
    </DashboardPage>
  );
}
