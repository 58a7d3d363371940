import type { Product } from '@tv-shop/contracts';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { PageHeading } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';
import { BookingModal } from '@/features/bookings/components/booking-modal';
import { useCategoryName } from '@/features/categories/use-category-name';
import { useCategoryProducts } from '@/features/products/api/get-category-products';
import { SearchFilters } from '@/features/products/search/search-filters';
import { ProductResults, SearchResults } from '@/features/products/search/search-results';
import { useSearchInUrl } from '@/features/products/search/use-search-in-url';
import { usePageTitle } from '@/lib/use-page-title';

/** The brand's listings, sold ones included, live: what the page shows before any search. */
function CategoryList({ categoryId, onBook }: { categoryId: string; onBook: (product: Product) => void }) {
  const { products, loading, error, retry } = useCategoryProducts(categoryId);
  return (
    <ProductResults
      products={products}
      total={products.length}
      loading={loading}
      error={error}
      retry={retry}
      onBook={onBook}
      empty="No Items Available"
    />
  );
}

export function CategoryPage() {
  const { id = '' } = useParams();
  const name = useCategoryName(id);
  usePageTitle(name ?? paths.category.title);
  // The brand is the page's own, so the search box and filters narrow within it.
  const fixed = useMemo(() => ({ category: id }), [id]);
  const { search, browsing, update } = useSearchInUrl(fixed);
  const [booking, setBooking] = useState<Product | null>(null);

  return (
    <div className="page">
      <PageHeading kicker="CATEGORY" title={name ?? 'Category'} />
      <SearchFilters value={search} onChange={update} />
      {browsing ? <CategoryList categoryId={id} onBook={setBooking} /> : <SearchResults search={search} onBook={setBooking} />}
      <BookingModal product={booking} onClose={() => setBooking(null)} />
    </div>
  );
}
