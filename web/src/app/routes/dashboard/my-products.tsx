import { useMemo } from 'react';
import { Loaded } from '@/components/ui/load-error';
import { paths } from '@/config/paths';
import { useSellerBookings } from '@/features/bookings/api/get-seller-bookings';
import { useSellerProducts } from '@/features/products/api/get-seller-products';
import { MyProductsTable } from '@/features/products/components/my-products-table';
import { useSessionUser } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';

export function MyProductsPage() {
  usePageTitle(paths.dashboard.myProducts.title);
  const user = useSessionUser();
  const { products, loading, error, retry } = useSellerProducts(user?.email ?? '');
  const { bookings } = useSellerBookings(user?.email ?? '');
  const buyers = useMemo(() => new Map(bookings.filter((b) => b.status === 'paid').map((b) => [b.product_id, b.username])), [bookings]);
  return (
    <section aria-labelledby="my-products-heading">
      <h1 id="my-products-heading" className="dashboard__title">
        My Products
      </h1>
      <Loaded loading={loading} error={error} retry={retry} what="products">
        <MyProductsTable products={products} buyers={buyers} />
      </Loaded>
    </section>
  );
}
