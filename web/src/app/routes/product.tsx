import type { Product } from '@tv-shop/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { EmptyText } from '@/components/ui/empty-text';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/lazy-booking-modal';
import { ProductDetails } from '@/features/products/components/product-details';
import { useProductPage } from '@/features/products/use-product-page';
import { usePageTitle } from '@/lib/use-page-title';
import { NotFoundPage } from './not-found';

export function ProductPage() {
  const { id = '' } = useParams();
  const { product, seller, loading, error, retry, notFound } = useProductPage(id);
  usePageTitle(notFound ? paths.notFound.title : (product?.porduct_name ?? paths.product.title));
  const [booking, setBooking] = useState<Product | null>(null);

  if (notFound) return <NotFoundPage />;
  if (loading) return <Spinner label="Loading the product" />;
  return (
    <div className="page">
      {error ? (
        <LoadError what="product" error={error} onRetry={retry} />
      ) : product ? (
        <ProductDetails product={product} seller={seller} onBook={setBooking} />
      ) : (
        <>
          <h1 className="visually-hidden">Listing removed</h1>
          <EmptyText>
            This listing has been removed. <Link to={paths.allProducts.href()}>See the TVs for sale</Link>
          </EmptyText>
        </>
      )}
      <BookingModal product={booking} onClose={() => setBooking(null)} />
    </div>
  );
}
