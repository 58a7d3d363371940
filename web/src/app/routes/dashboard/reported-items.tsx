import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useReportedProducts } from '@/features/products/api/get-reported-products';
import { ReportedItemsTable } from '@/features/products/components/reported-items-table';

export function ReportedItemsPage() {
  const { products, ...list } = useReportedProducts();
  return (
    <DashboardPage title={paths.dashboard.reportedItems.title} what="reported items" list={list}>
      <ReportedItemsTable products={products} />
    </DashboardPage>
  );
}
