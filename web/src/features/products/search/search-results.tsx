import { Alert, Button } from 'antd';
import type { Product } from '@tv-shop/contracts';
import type { ReactNode } from 'react';
import { EmptyText } from '@/components/ui/empty-text';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { ProductGrid } from '../components/product-grid';
import type { ProductSearchState } from './search-params';
import { useProductSearch } from './use-product-search';

const countText = (n: number, capped = false) => `${n.toLocaleString('en-US')}${capped ? '+' : ''} ${n === 1 && !capped ? 'TV' : 'TVs'}`;

interface ProductResultsProps {
  products: Product[];
  total: number;
  /** The server stopped counting (at 1,000): shown as "1,000+ TVs". */
  totalCapped?: boolean;
  loading: boolean;
  error: string | null;
  retry: () => void;
  onBook: (product: Product) => void;
  empty: ReactNode;
  children?: ReactNode;
}

/** A list of products under the filters: how many, the spinner, the error with Retry, the empty state or the cards. */
export function ProductResults({ products, total, totalCapped, loading, error, retry, onBook, empty, children }: ProductResultsProps) {
  if (loading) return <Spinner label="Loading the products" />;
  if (error) return <LoadError what="products" error={error} onRetry={retry} />;
  return (
    <section className="search-results" aria-label="Results">
      <p className="search-results__count" role="status">
        {countText(total, totalCapped)}
      </p>
      {products.length === 0 ? <EmptyText>{empty}</EmptyText> : <ProductGrid products={products} onBook={onBook} />}
      {children}
    </section>
  );
}

/** A search's results, kept live by pushes, with Load more while the server has more pages. */
export function SearchResults({ search, onBook }: { search: ProductSearchState; onBook: (product: Product) => void }) {
  const { products, total, totalCapped, loading, error, retry, hasMore, loadMore, loadingMore, loadMoreError } = useProductSearch(search);
  return (
    <ProductResults
      products={products}
      total={total}
      totalCapped={totalCapped}
      loading={loading}
      error={error}
      retry={retry}
      onBook={onBook}
      empty="No TVs match your search."
    >
      {loadMoreError ? (
        <Alert type="error" showIcon role="alert" message="Could not load more products." description={loadMoreError} />
      ) : null}
      {hasMore ? (
        <div className="search-results__more">
          <Button onClick={() => void loadMore()} loading={loadingMore}>
            Load more
          </Button>
        </div>
      ) : null}
    </ProductResults>
  );
}
