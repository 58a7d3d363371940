import { Navigate, Outlet, useLocation, type Location } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useSession, type Session } from '@/lib/session';
import type { SentToSignIn } from '../routes/use-return-after-sign-in';

/**
 * Why a page sends someone to log in when nobody is signed in: they never were here (a guard), or
 * the server ended their session, then with its reason. The guards and SessionEnd's own redirect
 * both say it so, whichever lands last.
 */
export function signInState(session: Session, from: Location): SentToSignIn {
  return session.status === 'signed-out' && session.ended
    ? { from, reason: 'session-ended', why: session.ended.why }
    : { from, reason: 'guard' };
}

/** Signed-in users pass; others go to /login, which brings them back here afterwards. */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <Spinner label="Checking your session" />;
  // Logged out here by the user: a plain login page, not "log in to come back to this page",
  // which would send whoever logs in next to this account's page.
  if (session.status === 'signed-out' && session.byUser) return <Navigate to={paths.login.href()} replace />;
  if (session.status === 'signed-out') return <Navigate to={paths.login.href()} replace state={signInState(session, location)} />;
  return <Outlet />;
}
