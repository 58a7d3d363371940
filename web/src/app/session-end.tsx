import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { onSessionEnded } from '@/lib/api-client';
import { useEndSession } from '@/lib/session';

/**
 * When any call made with the stored token answers 401 (the account was deleted, the token no
 * longer works), the user is signed out, told so, and sent to /login, which brings them back here.
 */
export function SessionEnd() {
  const navigate = useNavigate();
  const location = useLocation();
  const endSession = useEndSession();
  const here = useRef(location);
  useEffect(() => {
    here.current = location;
  }, [location]);

  useEffect(
    () =>
      onSessionEnded(() => {
        endSession();
        const from = here.current;
        if (from.pathname !== paths.login.href())
          void navigate(paths.login.href(), { replace: true, state: { from, reason: 'session-ended' } });
      }),
    [endSession, navigate],
  );
  return null;
}
