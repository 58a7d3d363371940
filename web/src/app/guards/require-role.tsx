import type { Role } from '@tv-shop/contracts';
import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { checkAdmin } from '@/features/auth/api/check-admin';
import { checkBuyer } from '@/features/auth/api/check-buyer';
import { checkSeller } from '@/features/auth/api/check-seller';
import { useSessionUser } from '@/lib/session';

const checks: Record<Role, (email: string) => Promise<boolean>> = {
  Admin: checkAdmin,
  Buyer: checkBuyer,
  Seller: checkSeller,
};

/** Asks the server whether the signed-in user has `role`; spinner while asking. */
export function RequireRole({ role }: { role: Role }) {
  const user = useSessionUser();
  const location = useLocation();
  const [allowed, setAllowed] = useState<boolean | null>(null);
  const email = user?.email;

  useEffect(() => {
    if (!email) return;
    let alive = true;
    setAllowed(null);
    checks[role](email).then(
      (ok) => alive && setAllowed(ok),
      (error: unknown) => {
        console.error(error);
        if (alive) setAllowed(false);
      },
    );
    return () => {
      alive = false;
    };
  }, [email, role]);

  if (!email || allowed === false) return <Navigate to={paths.login.href()} replace state={{ from: location }} />;
  if (allowed === null) return <Spinner label="Checking your access" />;
  return <Outlet />;
}
