import type { Product } from '@tv-shop/contracts';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { EmptyText } from '@/components/ui/empty-text';
import { LoadError } from '@/components/ui/load-error';
import { PageHeading } from '@/components/ui/page-heading';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/booking-modal';
import { useCategoryName } from '@/features/categories/use-category-name';
import { useCategoryProducts } from '@/features/products/api/get-category-products';
import { ProductGrid } from '@/features/products/components/product-grid';
import { usePageTitle } from '@/lib/use-page-title';

export function CategoryPage() {
  const { id = '' } = useParams();
  const name = useCategoryName(id);
  usePageTitle(name ?? paths.category.title);
  const { products, loading, error, retry } = useCategoryProducts(id);
  const [booking, setBooking] = useState<Product | null>(null);

  if (loading) return <Spinner />;
  return (
    <div className="page">
      <PageHeading kicker="CATEGORY" title={name ?? 'Category'} />
      {error ? (
        <LoadError what="products" error={error} onRetry={retry} />
      ) : products.length === 0 ? (
        <EmptyText>No Items Available</EmptyText>
      ) : (
        <ProductGrid products={products} onBook={setBooking} />
      )}
      <BookingModal product={booking} onClose={() => setBooking(null)} />
    </div>
  );
}
