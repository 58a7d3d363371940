import { useChosenProduct } from '@/features/products/use-chosen-product';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { PageHeading } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/lazy-booking-modal';
import { useCategory } from '@/features/categories/use-category-name';
import { SearchFilters } from '@/features/products/search/search-filters';
import { SearchResults } from '@/features/products/search/search-results';
import { useSearchInUrl } from '@/features/products/search/use-search-in-url';
import { usePageTitle } from '@/lib/use-page-title';
import { NotFoundPage } from './not-found';

export function CategoryPage() {
  const { id = '' } = useParams();
  const { name, missing } = useCategory(id);
  usePageTitle(name ?? paths.category.title);
  // The brand is the page's own, so the search box and filters narrow within it.
  const fixed = useMemo(() => ({ category: id }), [id]);
  const { search, update } = useSearchInUrl(fixed);
  // Live while its dialog is open: a change the seller makes meanwhile shows in it (ADR 0071).
  const booking = useChosenProduct();

  // A link to a category the shop does not have: the 404 page, as for a product or a seller.
  if (missing) return <NotFoundPage />;
  return (
    <div className="page">
      <PageHeading kicker="CATEGORY" title={name ?? 'Category'} />
      <SearchFilters value={search} onChange={update} />
      {/* The cards are h3: a heading for the results keeps the outline h1 > h2 > h3. */}
      <h2 className="visually-hidden">Resale TVs</h2>
      <SearchResults search={search} onBook={booking.choose} />
      <BookingModal {...booking.dialog} />
    </div>
  );
}
