import { Loaded } from '@/components/ui/load-error';
import { paths } from '@/config/paths';
import { useUsersByRole } from '@/features/users/api/get-users-by-role';
import { BuyersTable } from '@/features/users/components/buyers-table';
import { usePageTitle } from '@/lib/use-page-title';

export function AllBuyersPage() {
  usePageTitle(paths.dashboard.allBuyers.title);
  const { users, loading, error, retry } = useUsersByRole('Buyer');
  return (
    <section aria-labelledby="buyers-heading">
      <h1 id="buyers-heading" className="dashboard__title">
        All Buyers
      </h1>
      <Loaded loading={loading} error={error} retry={retry} what="buyers">
        <BuyersTable buyers={users} />
      </Loaded>
    </section>
  );
}
