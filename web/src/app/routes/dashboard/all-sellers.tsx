import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useUsersByRole } from '@/features/users/api/get-users-by-role';
import { SellersTable } from '@/features/users/components/sellers-table';
import { withAntd } from '@/lib/antd-theme';

function AllSellersPageContent() {
  const { users, ...list } = useUsersByRole('Seller');
  return (
    <DashboardPage title={paths.dashboard.allSellers.title} what="sellers" list={list}>
      <SellersTable sellers={users} />
    </DashboardPage>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const AllSellersPage = withAntd(AllSellersPageContent);
