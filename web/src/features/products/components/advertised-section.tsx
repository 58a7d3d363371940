import type { Product } from '@tv-shop/contracts';
import { useAdvertisedProducts } from '../api/get-advertised-products';
import { ProductGrid } from './product-grid';

/** Shown only while some advertised item is still for sale. */
export function AdvertisedSection({ onBook }: { onBook: (product: Product) => void }) {
  const { products } = useAdvertisedProducts();
  if (products.length === 0) return null;
  return (
    <section className="section" aria-labelledby="advertised-heading">
      <header className="section-heading">
        <p className="section-heading__kicker">ADVERTISED</p>
        <h2 id="advertised-heading">Advertised Items</h2>
      </header>
      <ProductGrid products={products} onBook={onBook} />
    </section>
  );
}
