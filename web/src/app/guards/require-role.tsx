import type { Role } from '@tv-shop/contracts';
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { checkAdmin } from '@/features/auth/api/check-admin';
import { checkBuyer } from '@/features/auth/api/check-buyer';
import { checkSeller } from '@/features/auth/api/check-seller';
import { errorMessage } from '@/lib/api-client';
import { useSessionUser } from '@/lib/session';

const checks: Record<Role, (email: string) => Promise<boolean>> = {
  Admin: checkAdmin,
  Buyer: checkBuyer,
  Seller: checkSeller,
};

const wrongRoleText = (role: Role) => `That page is for ${role}s only.`;

type Check = { status: 'pending' } | { status: 'allowed' } | { status: 'refused' } | { status: 'failed'; error: string };

/**
 * Asks the server whether the signed-in user has `role`; spinner while asking. Someone signed in
 * with another role goes to their profile and is told why, never to the login form; a check that
 * could not be made says so and offers a retry.
 */
export function RequireRole({ role }: { role: Role }) {
  const user = useSessionUser();
  const location = useLocation();
  const [check, setCheck] = useState<Check>({ status: 'pending' });
  const [attempt, setAttempt] = useState(0);
  const email = user?.email;

  useEffect(() => {
    if (!email) return;
    let alive = true;
    setCheck({ status: 'pending' });
    checks[role](email).then(
      (ok) => {
        if (!alive) return;
        if (!ok) toast.error(wrongRoleText(role), { id: 'wrong-role' });
        setCheck({ status: ok ? 'allowed' : 'refused' });
      },
      (error: unknown) => {
        console.error(error);
        if (alive) setCheck({ status: 'failed', error: errorMessage(error) });
      },
    );
    return () => {
      alive = false;
    };
  }, [email, role, attempt]);

  // RequireAuth sits above, so this only happens while a session is ending.
  if (!email) return <Navigate to={paths.login.href()} replace state={{ from: location }} />;
  switch (check.status) {
    case 'pending':
      return <Spinner label="Checking your access" />;
    case 'refused':
      return <Navigate to={paths.dashboard.root.href()} replace />;
    case 'failed':
      return <LoadError title="Could not check your access to this page." error={check.error} onRetry={() => setAttempt((n) => n + 1)} />;
    case 'allowed':
      return <Outlet />;
  }
}
