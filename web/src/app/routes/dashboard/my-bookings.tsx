import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useSellerBookings } from '@/features/bookings/api/get-seller-bookings';
import { SellerBookingsList } from '@/features/bookings/components/seller-bookings-list';
import { useSessionUser } from '@/lib/session';
import { withAntd } from '@/lib/antd-theme';

function MyBookingsPageContent() {
  const email = useSessionUser()?.email ?? '';
  const { bookings, ...list } = useSellerBookings(email);
  return (
    <DashboardPage title={paths.dashboard.myBookings.title} what="bookings" list={list}>
      <SellerBookingsList bookings={bookings} />
    </DashboardPage>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const MyBookingsPage = withAntd(MyBookingsPageContent);
