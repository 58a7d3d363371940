import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useSellerBookings } from '@/features/bookings/api/get-seller-bookings';
import { SellerBookingsList } from '@/features/bookings/components/seller-bookings-list';
import { useSessionUser } from '@/lib/session';

export function MyBookingsPage() {
  const email = useSessionUser()?.email ?? '';
  const { bookings, ...list } = useSellerBookings(email);
  return (
    <DashboardPage title={paths.dashboard.myBookings.title} what="bookings" list={list}>
      <SellerBookingsList bookings={bookings} />
    </DashboardPage>
  );
}
