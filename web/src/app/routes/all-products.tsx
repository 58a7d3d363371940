import { useChosenProduct } from '@/features/products/use-chosen-product';
import { useMemo } from 'react';
import { PageHeading } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/lazy-booking-modal';
import { useCategories } from '@/features/categories/api/get-categories';
import { SearchFilters } from '@/features/products/search/search-filters';
import { SearchResults } from '@/features/products/search/search-results';
import { useSearchInUrl } from '@/features/products/search/use-search-in-url';
import { usePageTitle } from '@/lib/use-page-title';

/** Every listing for sale, newest first, a page at a time; the search box and filters narrow it. */
export function AllProductsPage() {
  usePageTitle(paths.allProducts.title);
  const { search, update } = useSearchInUrl();
  const { categories } = useCategories();
  const brands = useMemo(() => categories.map((c) => ({ id: c._id, name: c.category_name })), [categories]);
  // Live while its dialog is open: a change the seller makes meanwhile shows in it (ADR 0071).
  const booking = useChosenProduct();

  return (
    <div className="page">
      <PageHeading kicker="All PRODUCTS" title="All Our Resale Products" />
      <SearchFilters value={search} onChange={update} brands={brands} />
      {/* The cards are h3: a heading for the results keeps the outline h1 > h2 > h3. */}
      <h2 className="visually-hidden">Resale TVs</h2>
      <SearchResults search={search} onBook={booking.choose} />
      <BookingModal {...booking.dialog} />
    </div>
  );
}
