import { Loaded } from '@/components/ui/load-error';
import { paths } from '@/config/paths';
import { useUsersByRole } from '@/features/users/api/get-users-by-role';
import { SellersTable } from '@/features/users/components/sellers-table';
import { usePageTitle } from '@/lib/use-page-title';

export function AllSellersPage() {
  usePageTitle(paths.dashboard.allSellers.title);
  const { users, loading, error, retry } = useUsersByRole('Seller');
  return (
    <section aria-labelledby="sellers-heading">
      <h1 id="sellers-heading" className="dashboard__title">
        All Sellers
      </h1>
      <Loaded loading={loading} error={error} retry={retry} what="sellers">
        <SellersTable sellers={users} />
      </Loaded>
    </section>
  );
}
