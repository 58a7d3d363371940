import type { Product } from '@tv-shop/contracts';
import { LoadError } from '@/components/ui/load-error';
import { CardsSkeleton } from '@/components/ui/skeleton';
import { useAdvertisedProducts } from '../api/get-advertised-products';
import { ProductGrid } from './product-grid';

/**
 * Shown while some advertised item is still for sale, or to say it could not be loaded; while it
 * loads, cards in grey hold its place so the page below does not jump when it arrives.
 */
export function AdvertisedSection({ onBook }: { onBook: (product: Product) => void }) {
  const { products, loading, error, retry } = useAdvertisedProducts();
  if (!loading && !error && products.length === 0) return null;
  return (
    <section className="section" aria-labelledby="advertised-heading">
      <header className="section-heading">
        <p className="section-heading__kicker">ADVERTISED</p>
        <h2 id="advertised-heading">Advertised Items</h2>
      </header>
      {loading && products.length === 0 ? (
        <CardsSkeleton label="Loading the advertised items" />
      ) : error ? (
        <LoadError what="advertised items" error={error} onRetry={retry} />
      ) : (
        <ProductGrid products={products} onBook={onBook} />
      )}
    </section>
  );
}
