import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useMyBookings } from '@/features/bookings/api/get-my-bookings';
import { MyOrdersTable } from '@/features/bookings/components/my-orders-table';
import { useSessionUser } from '@/lib/session';
import { withAntd } from '@/lib/antd-theme';

function MyOrdersPageContent() {
  const email = useSessionUser()?.email ?? '';
  const { bookings, ...list } = useMyBookings(email);
  return (
    <DashboardPage title={paths.dashboard.myOrders.title} what="orders" list={list}>
      <MyOrdersTable bookings={bookings} />
    </DashboardPage>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const MyOrdersPage = withAntd(MyOrdersPageContent);
