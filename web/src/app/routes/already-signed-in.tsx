import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Notice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { useSessionUser } from '@/lib/session';

/**
 * Login and Sign Up opened by someone already signed in (a bookmark, Back): who they are and the
 * way on, above the form. Only when they came signed in: a sign-in on the page itself says nothing
 * while it moves on.
 */
export function AlreadySignedIn() {
  const user = useSessionUser();
  const [cameSignedIn] = useState(() => user !== null);
  if (!cameSignedIn || !user) return null;
  return (
    <Notice
      type="info"
      role="status"
      className="auth-card__reason"
      title={`You are signed in as ${user.name}.`}
      description={
        <>
          Go to <Link to={paths.dashboard.root.href()}>your dashboard</Link>, or Log Out first to use another account.
        </>
      }
    />
  );
}
