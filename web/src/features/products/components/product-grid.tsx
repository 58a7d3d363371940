import type { Product } from '@tv-shop/contracts';
import { ProductCard } from './product-card';

/**
 * Products as cards, one to three columns. The first card's photo is fetched at once (it is in
 * view when the page opens, the page's largest paint); the rest as they scroll near.
 */
export function ProductGrid({
  products,
  onBook,
  eagerFirst = true,
}: {
  products: Product[];
  onBook: (product: Product) => void;
  /** False where the grid starts below the fold. */
  eagerFirst?: boolean;
}) {
  return (
    <div className="product-grid">
      {products.map((product, i) => (
        <ProductCard key={product._id} product={product} onBook={onBook} priority={eagerFirst && i === 0} />
      ))}
    </div>
  );
}
