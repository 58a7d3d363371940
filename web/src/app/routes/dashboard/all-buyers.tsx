import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useUsersByRole } from '@/features/users/api/get-users-by-role';
import { BuyersTable } from '@/features/users/components/buyers-table';
import { withAntd } from '@/lib/antd-theme';

function AllBuyersPageContent() {
  const { users, ...list } = useUsersByRole('Buyer');
  return (
    <DashboardPage title={paths.dashboard.allBuyers.title} what="buyers" list={list}>
      <BuyersTable buyers={users} />
    </DashboardPage>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const AllBuyersPage = withAntd(AllBuyersPageContent);
