import { useChosenProduct } from '@/features/products/use-chosen-product';
import { useParams } from 'react-router-dom';
import { EmptyText } from '@/components/ui/empty-text';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/lazy-booking-modal';
import { ProductGrid } from '@/features/products/components/product-grid';
import { listingsText } from '@/features/products/components/seller-block';
import { formatDate } from '@/lib/format';
import { VerifiedMark } from '@/features/products/components/verified-mark';
import { useSellerPage } from '@/features/products/use-seller-page';
import { usePageTitle } from '@/lib/use-page-title';
import { NotFoundPage } from './not-found';

export function SellerPage() {
  const { id = '' } = useParams();
  const { seller, listings, loading, error, retry, notFound } = useSellerPage(id);
  usePageTitle(notFound ? paths.notFound.title : (seller?.name ?? paths.seller.title));
  // Live while its dialog is open: a change the seller makes meanwhile shows in it (ADR 0071).
  const booking = useChosenProduct();

  if (notFound) return <NotFoundPage />;
  if (loading) return <Spinner label="Loading the seller" />;
  return (
    <div className="page">
      {error || !seller ? (
        <LoadError what="seller" error={error ?? ''} onRetry={retry} />
      ) : (
        <>
          <header className="section-heading seller-heading">
            <p className="section-heading__kicker">SELLER</p>
            <h1>
              {seller.name} {seller.verified ? <VerifiedMark /> : null}
            </h1>
            <p className="seller-heading__meta">
              Member since {formatDate(seller.memberSince)} · {listingsText(listings.length)}
            </p>
          </header>
          {/* The cards are h3: a heading for the listings keeps the outline h1 > h2 > h3. */}
          <h2 className="visually-hidden">TVs for sale</h2>
          {listings.length === 0 ? <EmptyText>No Items Available</EmptyText> : <ProductGrid products={listings} onBook={booking.choose} />}
        </>
      )}
      <BookingModal {...booking.dialog} />
    </div>
  );
}
