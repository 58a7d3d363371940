import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useReportedProducts } from '@/features/products/api/get-reported-products';
import { ReportedItemsTable } from '@/features/products/components/reported-items-table';
import { withAntd } from '@/lib/antd-theme';

function ReportedItemsPageContent() {
  const { products, ...list } = useReportedProducts();
  return (
    <DashboardPage title={paths.dashboard.reportedItems.title} what="reported items" list={list}>
      <ReportedItemsTable products={products} reread={list.retry} />
    </DashboardPage>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const ReportedItemsPage = withAntd(ReportedItemsPageContent);
