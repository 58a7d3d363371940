import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';

/** Signed-in users pass; others go to /login, which brings them back here afterwards. */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <Spinner label="Checking your session" />;
  // Logged out here by the user: a plain login page, not "log in to come back to this page",
  // which would send whoever logs in next to this account's page.
  if (session.status === 'signed-out' && session.byUser) return <Navigate to={paths.login.href()} replace />;
  if (session.status === 'signed-out') return <Navigate to={paths.login.href()} replace state={{ from: location, reason: 'guard' }} />;
  return <Outlet />;
}
