import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
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
      {loading ? <Spinner /> : error ? <LoadError what="sellers" error={error} onRetry={retry} /> : <SellersTable sellers={users} />}
    </section>
  );
}
