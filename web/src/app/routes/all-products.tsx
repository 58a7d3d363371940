import type { Product } from '@tv-shop/contracts';
import { useState } from 'react';
import { EmptyText } from '@/components/ui/empty-text';
import { LoadError } from '@/components/ui/load-error';
import { PageHeading } from '@/components/ui/page-heading';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/booking-modal';
import { useAllProducts } from '@/features/products/api/get-all-products';
import { ProductGrid } from '@/features/products/components/product-grid';
import { usePageTitle } from '@/lib/use-page-title';

export function AllProductsPage() {
  usePageTitle(paths.allProducts.title);
  const { products, loading, error, retry } = useAllProducts();
  const [booking, setBooking] = useState<Product | null>(null);

  if (loading) return <Spinner />;
  return (
    <div className="page">
      {error ? (
        <>
          <PageHeading kicker="All PRODUCTS" title="All Our Resale Products" />
          <LoadError what="products" error={error} onRetry={retry} />
        </>
      ) : products.length === 0 ? (
        <EmptyText>No Items Available</EmptyText>
      ) : (
        <>
          <PageHeading kicker="All PRODUCTS" title="All Our Resale Products" />
          <ProductGrid products={products} onBook={setBooking} />
        </>
      )}
      <BookingModal product={booking} onClose={() => setBooking(null)} />
    </div>
  );
}
