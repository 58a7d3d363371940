import { Loaded } from '@/components/ui/load-error';
import { paths } from '@/config/paths';
import { useSellerProducts } from '@/features/products/api/get-seller-products';
import { MyProductsTable } from '@/features/products/components/my-products-table';
import { useSessionUser } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';

export function MyProductsPage() {
  usePageTitle(paths.dashboard.myProducts.title);
  const user = useSessionUser();
  const { products, loading, error, retry } = useSellerProducts(user?.email ?? '');
  return (
    <section aria-labelledby="my-products-heading">
      <h1 id="my-products-heading" className="dashboard__title">
        My Products
      </h1>
      <Loaded loading={loading} error={error} retry={retry} what="products">
        <MyProductsTable products={products} />
      </Loaded>
    </section>
  );
}
