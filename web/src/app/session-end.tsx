import { useStore } from 'jotai';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { onSessionEnded } from '@/lib/api-client';
import { sessionAtom, useEndSession } from '@/lib/session';
import { signInState } from './guards/require-auth';

/**
 * When a call made with this tab's token answers 401 (the account was deleted, the token no
 * longer works), the user is signed out, told so, and sent to /login, which says the server's
 * reason and brings them back here.
 * A late 401 to a token this tab no longer holds (an older session of it) ends nothing.
 */
export function SessionEnd() {
  const navigate = useNavigate();
  const location = useLocation();
  const endSession = useEndSession();
  const store = useStore();
  const here = useRef(location);
  useEffect(() => {
    here.current = location;
  }, [location]);

  useEffect(
    () =>
      onSessionEnded((refused, why) => {
        const session = store.get(sessionAtom);
        if (session.status === 'signed-out' || (session.status === 'signed-in' && session.token !== refused)) return;
        endSession(refused, why);
        const from = here.current;
        if (from.pathname !== paths.login.href())
          void navigate(paths.login.href(), { replace: true, state: signInState(store.get(sessionAtom), from) });
      }),
    [endSession, navigate, store],
  );
  return null;
}
