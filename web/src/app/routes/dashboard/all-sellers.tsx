import { DashboardPage } from '@/components/ui/dashboard-page';
import { paths } from '@/config/paths';
import { useUsersByRole } from '@/features/users/api/get-users-by-role';
import { SellersTable } from '@/features/users/components/sellers-table';

export function AllSellersPage() {
  const { users, ...list } = useUsersByRole('Seller');
  return (
    <DashboardPage title={paths.dashboard.allSellers.title} what="sellers" list={list}>
      <SellersTable sellers={users} />
    </DashboardPage>
  );
}
