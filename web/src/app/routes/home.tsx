import { useChosenProduct } from '@/features/products/use-chosen-product';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/lazy-booking-modal';
import { CategoriesGrid } from '@/features/categories/components/categories-grid';
import { DiscountPromo } from '@/features/marketing/components/discount-promo';
import { WelcomeBanner } from '@/features/marketing/components/welcome-banner';
import { AdvertisedSection } from '@/features/products/components/advertised-section';
import { usePageTitle } from '@/lib/use-page-title';

export function HomePage() {
  usePageTitle(paths.home.title);
  // Live while its dialog is open: a change the seller makes meanwhile shows in it (ADR 0071).
  const booking = useChosenProduct();
  return (
    <div className="page">
      <WelcomeBanner />
      <AdvertisedSection onBook={booking.choose} />
      <CategoriesGrid />
      <DiscountPromo />
      <BookingModal {...booking.dialog} />
    </div>
  );
}
