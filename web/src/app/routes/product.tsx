import { useChosenProduct } from '@/features/products/use-chosen-product';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/lazy-booking-modal';
import { ListingGone, NO_LONGER_FOR_SALE } from '@/features/products/components/listing-gone';
import { ProductDetails } from '@/features/products/components/product-details';
import { getProductPage } from '@/features/products/api/get-product-page';
import { useProductPage } from '@/features/products/use-product-page';
import { usePageTitle } from '@/lib/use-page-title';
import { NotFoundPage } from './not-found';

export function ProductPage() {
  const { id = '' } = useParams();
  const page = useProductPage(id, { read: getProductPage });
  const { product, seller, loading, error, retry, removed, wasShown, readAgainSoon } = page;
  // No longer for sale: opened so (a 410 says why), or removed while open (a push, or a 404 read
  // again); then it is read again, and the server says why.
  const removedHere = wasShown && !product && !page.notFound;
  const gone = removed !== null || removedHere || (wasShown && page.notFound);
  const notFound = page.notFound && !gone;
  useEffect(() => {
    if (removedHere) readAgainSoon();
  }, [removedHere, readAgainSoon]);
  usePageTitle(notFound ? paths.notFound.title : gone ? NO_LONGER_FOR_SALE : (product?.porduct_name ?? paths.product.title));
  // Live while its dialog is open: a change the seller makes meanwhile shows in it (ADR 0071).
  const booking = useChosenProduct();

  if (notFound) return <NotFoundPage />;
  // Not shown yet and not known to be gone (the first render of another product's page): loading.
  if ((loading || (!product && !error && !wasShown)) && !gone) return <Spinner label="Loading the product" />;
  return (
    <div className="page">
      {gone ? (
        <ListingGone removed={removed} removedWhileOpen={wasShown} />
      ) : error ? (
        <LoadError what="product" error={error} onRetry={retry} />
      ) : (
        product && <ProductDetails product={product} seller={seller} onBook={booking.choose} />
      )}
      <BookingModal {...booking.dialog} />
    </div>
  );
}
