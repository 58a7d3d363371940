import type { Product } from '@tv-shop/contracts';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { EmptyText } from '@/components/ui/empty-text';
import { LoadError } from '@/components/ui/load-error';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { ProductGrid } from '../components/product-grid';
import { priceProblem, priceRefusal } from './price-range';
import { isFiltered, type ProductSearchState } from './search-params';
import { useProductSearch } from './use-product-search';
import { focusLost } from '@/lib/focus-heading';

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

/**
 * Prices the server would refuse (a link or a hand-edited URL: the filters send none): what to
 * fix, in the filters' words, instead of a failed search whose Retry could not help.
 */
function PriceToFix({ message }: { message: string }) {
  return (
    <Notice
      className="search-results__price"
      type="warning"
      role="alert"
      title={`${message}.`}
      description="Change the prices in the filters to see the TVs."
    />
  );
}

type SearchResultsProps = { search: ProductSearchState; onBook: (product: Product) => void };

/** A search's results, kept live by pushes, with Load more while the server has more pages. */
export function SearchResults(props: SearchResultsProps) {
  const problem = priceProblem(props.search.minPrice, props.search.maxPrice);
  return problem ? <PriceToFix message={problem.message} /> : <LiveSearchResults {...props} />;
}

function LiveSearchResults({ search, onBook }: SearchResultsProps) {
  const { products, total, totalCapped, loading, error, retry, hasMore, loadMore, loadingMore, loadMoreError } = useProductSearch(search);
  const more = useLoadMoreFocus(products, loadMore, loadingMore);
  // Should the server refuse prices the filters let through, its problem is said the same way.
  const refusal = error ? priceRefusal(error) : null;
  if (refusal) return <PriceToFix message={refusal} />;
  return (
    <ProductResults
      products={products}
      total={total}
      totalCapped={totalCapped}
      loading={loading}
      error={error}
      retry={retry}
      onBook={onBook}
      // Not "yet": a shop whose TVs were all sold has had some, and Show sold lists them.
      empty={isFiltered(search) ? 'No TVs match your search.' : 'No TVs for sale here right now. Show sold lists the ones already sold.'}
    >
      {loadMoreError ? <Notice type="error" role="alert" title="Could not load more products." description={loadMoreError} /> : null}
      {hasMore ? (
        <div className="search-results__more">
          <Button ref={more.button} onClick={more.load} loading={loadingMore}>
            Load more
          </Button>
        </div>
      ) : null}
    </ProductResults>
  );
}

/**
 * Load more, and where the focus goes once it answers: to the first TV it brought (its name's
 * link), where reading goes on, rather than to the page's start when the button goes with the
 * last page. A failed load leaves the focus on the button, beside what says why.
 */
function useLoadMoreFocus(products: Product[], loadMore: () => Promise<void>, loadingMore: boolean) {
  const button = useRef<HTMLButtonElement>(null);
  // The last TV shown when Load more was pressed: the one after it is the first the page brought.
  const [after, setAfter] = useState<string | null>(null);
  useEffect(() => {
    // The page and the end of loading come in one render: look once it has ended, then never again.
    if (after === null || loadingMore) return;
    setAfter(null);
    const at = products.findIndex((p) => p._id === after);
    const first = at >= 0 ? products[at + 1] : undefined;
    const section = button.current?.closest('.search-results') ?? document;
    const link = first && section.querySelector<HTMLElement>(`[data-product-id="${CSS.escape(first._id)}"] .product-card__title a`);
    if (link) link.focus();
    // Nothing came (the load failed): back to the button, which was off while it loaded, unless
    // the focus went elsewhere meanwhile.
    else if (focusLost()) button.current?.focus();
  }, [after, loadingMore, products]);
  const load = () => {
    setAfter(products.at(-1)?._id ?? null);
    void loadMore();
  };
  return { button, load };
}
