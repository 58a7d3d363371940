import type { Role } from '@tv-shop/contracts';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { checkAdmin } from '@/features/auth/api/check-admin';
import { checkBuyer } from '@/features/auth/api/check-buyer';
import { checkSeller } from '@/features/auth/api/check-seller';
import { errorMessage, isOutage, logFailure } from '@/lib/api-client';
import { onLiveReconnect } from '@/lib/live-socket';
import { hasRole, useSession, useSessionUser } from '@/lib/session';
import { signInState } from './require-auth';

const checks: Record<Role, (email: string) => Promise<boolean>> = {
  Admin: checkAdmin,
  Buyer: checkBuyer,
  Seller: checkSeller,
};

const wrongRoleText = (role: Role) => `That page is for ${role}s only.`;

type Check =
  | { status: 'pending' }
  | { status: 'allowed' }
  | { status: 'refused' }
  | { status: 'failed'; error: string }
  /** The server could not be asked (an outage), and the session says the role: the page shows. */
  | { status: 'assumed' };

/**
 * Asks the server whether the signed-in user has `role`; spinner while asking. Someone signed in
 * with another role goes to their profile and is told why, never to the login form. When the
 * check cannot be made for an outage and the signed-in session already says the user has the
 * role, the page shows (its own loads say what they could not read) and the check is made again
 * once the live connection is back; any other failed check says so and offers a retry.
 */
export function RequireRole({ role }: { role: Role }) {
  const user = useSessionUser();
  const session = useSession();
  const location = useLocation();
  const [check, setCheck] = useState<Check>({ status: 'pending' });
  const [attempt, setAttempt] = useState(0);
  const email = user?.email;
  // Read when a check fails, not a reason to check again.
  const knownRole = useRef(false);
  const checkedFor = useRef('');
  knownRole.current = hasRole(user, role);

  useEffect(() => {
    if (!email) return;
    let alive = true;
    // Checking again what was already let through (after an outage) keeps the page on screen.
    const same = checkedFor.current === `${email} ${role}`;
    checkedFor.current = `${email} ${role}`;
    setCheck((current) => (same && current.status !== 'failed' ? current : { status: 'pending' }));
    checks[role](email).then(
      (ok) => {
        if (!alive) return;
        if (!ok) toast.error(wrongRoleText(role), { id: 'wrong-role' });
        setCheck({ status: ok ? 'allowed' : 'refused' });
      },
      (error: unknown) => {
        logFailure(error);
        if (!alive) return;
        setCheck(isOutage(error) && knownRole.current ? { status: 'assumed' } : { status: 'failed', error: errorMessage(error) });
      },
    );
    return () => {
      alive = false;
    };
  }, [email, role, attempt]);

  // The answer the outage kept from us is asked for again as soon as the server is back.
  useEffect(() => {
    if (check.status !== 'assumed') return;
    return onLiveReconnect(() => setAttempt((n) => n + 1));
  }, [check.status]);

  // RequireAuth sits above, so this only happens while a session is ending.
  if (!email) return <Navigate to={paths.login.href()} replace state={signInState(session, location)} />;
  switch (check.status) {
    case 'pending':
      return <Spinner label="Checking your access" />;
    case 'refused':
      return <Navigate to={paths.dashboard.root.href()} replace />;
    case 'failed':
      return <LoadError title="Could not check your access to this page." error={check.error} onRetry={() => setAttempt((n) => n + 1)} />;
    case 'allowed':
    case 'assumed':
      return <Outlet />;
  }
}
