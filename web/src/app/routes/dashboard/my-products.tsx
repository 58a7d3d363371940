import { useMemo } from 'react';
import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useSellerBookings } from '@/features/bookings/api/get-seller-bookings';
import { useSellerProducts } from '@/features/products/api/get-seller-products';
import { MyProductsTable } from '@/features/products/components/my-products-table';
import { RemovedListings } from '@/features/products/components/removed-listings';
import { useSessionUser } from '@/lib/session';
import { withAntd } from '@/lib/antd-theme';

function MyProductsPageContent() {
  const user = useSessionUser();
  const email = user?.email ?? '';
  const { products, ...list } = useSellerProducts(email, user?._id ?? '');
  // Who bought each TV sold here, from the seller's bookings (a paid booking names its buyer).
  const { bookings, loading: bookingsLoading, error: bookingsError } = useSellerBookings(email);
  const buyers = useMemo(() => new Map(bookings.filter((b) => b.status === 'paid').map((b) => [b.product_id, b.username])), [bookings]);
  // How many buyers booked each TV and have not paid: Make Sold cancels their bookings, so it asks first.
  const openBookings = useMemo(() => {
    const open = new Map<string, number>();
    for (const b of bookings) if (b.status === 'open') open.set(b.product_id, (open.get(b.product_id) ?? 0) + 1);
    return open;
  }, [bookings]);
  return (
    // The rows wait for the bookings too: Make Sold asks first on a row with unpaid bookings.
    <DashboardPage title={paths.dashboard.myProducts.title} what="products" list={{ ...list, loading: list.loading || bookingsLoading }}>
      <MyProductsTable products={products} buyers={buyers} openBookings={openBookings} bookingsKnown={!bookingsError} />
      <RemovedListings sellerId={user?._id ?? ''} />
    </DashboardPage>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const MyProductsPage = withAntd(MyProductsPageContent);
