import type { Product } from '@tv-shop/contracts';
import { useState } from 'react';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/lazy-booking-modal';
import { CategoriesGrid } from '@/features/categories/components/categories-grid';
import { DiscountPromo } from '@/features/marketing/components/discount-promo';
import { WelcomeBanner } from '@/features/marketing/components/welcome-banner';
import { AdvertisedSection } from '@/features/products/components/advertised-section';
import { usePageTitle } from '@/lib/use-page-title';

export function HomePage() {
  usePageTitle(paths.home.title);
  const [booking, setBooking] = useState<Product | null>(null);
  return (
    <div className="page">
      <WelcomeBanner />
      <AdvertisedSection onBook={setBooking} />
      <CategoriesGrid />
      <DiscountPromo />
      <BookingModal product={booking} onClose={() => setBooking(null)} />
    </div>
  );
}
