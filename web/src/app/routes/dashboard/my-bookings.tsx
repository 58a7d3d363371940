import { Loaded } from '@/components/ui/load-error';
import { paths } from '@/config/paths';
import { useSellerBookings } from '@/features/bookings/api/get-seller-bookings';
import { SellerBookingsList } from '@/features/bookings/components/seller-bookings-list';
import { useSessionUser } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';

export function MyBookingsPage() {
  usePageTitle(paths.dashboard.myBookings.title);
  const email = useSessionUser()?.email ?? '';
  const { bookings, loading, error, retry } = useSellerBookings(email);
  return (
    <section aria-labelledby="my-bookings-heading">
      <h1 id="my-bookings-heading" className="dashboard__title">
        My Bookings
      </h1>
      <Loaded loading={loading} error={error} retry={retry} what="bookings">
        <SellerBookingsList bookings={bookings} />
      </Loaded>
    </section>
  );
}
