import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useUsersByRole } from '@/features/users/api/get-users-by-role';
import { BuyersTable } from '@/features/users/components/buyers-table';

export function AllBuyersPage() {
  const { users, ...list } = useUsersByRole('Buyer');
  return (
    <DashboardPage title={paths.dashboard.allBuyers.title} what="buyers" list={list}>
      <BuyersTable buyers={users} />
    </DashboardPage>
  );
}
