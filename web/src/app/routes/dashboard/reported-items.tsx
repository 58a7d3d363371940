import { Loaded } from '@/components/ui/load-error';
import { paths } from '@/config/paths';
import { useReportedProducts } from '@/features/products/api/get-reported-products';
import { ReportedItemsTable } from '@/features/products/components/reported-items-table';
import { usePageTitle } from '@/lib/use-page-title';

export function ReportedItemsPage() {
  usePageTitle(paths.dashboard.reportedItems.title);
  const { products, loading, error, retry } = useReportedProducts();
  return (
    <section aria-labelledby="reported-heading">
      <h1 id="reported-heading" className="dashboard__title">
        Reported Items
      </h1>
      <Loaded loading={loading} error={error} retry={retry} what="reported items">
        <ReportedItemsTable products={products} />
      </Loaded>
    </section>
  );
}
