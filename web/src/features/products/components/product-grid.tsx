import type { Product } from '@tv-shop/contracts';
import { ProductCard } from './product-card';

export function ProductGrid({ products, onBook }: { products: Product[]; onBook: (product: Product) => void }) {
  return (
    <div className="product-grid">
      {products.map((product) => (
        <ProductCard key={product._id} product={product} onBook={onBook} />
      ))}
    </div>
  );
}
