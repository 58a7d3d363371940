import type { Product } from '@tv-shop/contracts';
import { LoadError } from '@/components/ui/load-error';
import { useAdvertisedProducts } from '../api/get-advertised-products';
import { ProductGrid } from './product-grid';

/** Shown only while some advertised item is still for sale, or to say it could not be loaded. */
export function AdvertisedSection({ onBook }: { onBook: (product: Product) => void }) {
  const { products, error, retry } = useAdvertisedProducts();
  if (!error && products.length === 0) return null;
  return (
    <section className="section" aria-labelledby="advertised-heading">
      <header className="section-heading">
        <p className="section-heading__kicker">ADVERTISED</p>
        <h2 id="advertised-heading">Advertised Items</h2>
      </header>
      {error ? <LoadError what="advertised items" error={error} onRetry={retry} /> : <ProductGrid products={products} onBook={onBook} />}
    </section>
  );
}
