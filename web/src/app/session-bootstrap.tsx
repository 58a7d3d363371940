import { SESSION_REFUSED, type User } from '@tv-shop/contracts';
import { useAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { getProfile } from '@/features/auth/api/get-profile';
import { refreshToken } from '@/features/auth/api/refresh-token';
import { ApiError, isOutage, logFailure } from '@/lib/api-client';
import { onLiveReconnect } from '@/lib/live-socket';
import { ACCOUNT_GONE_TEXT, SESSION_ENDED_TEXT, SESSION_ENDED_TOAST, sessionAtom, useEndSession } from '@/lib/session';
import { emailFromToken, isTokenOf, tokenStorage } from '@/lib/token-storage';

/** The signed-in user's profile as last read, so an outage at load does not sign them out. */
const USER_KEY = 'TV_Shop_User';
/** How long to wait before asking again for a profile an outage kept from us (no copy kept). */
const PROFILE_RETRY_MS = 3000;

function cachedUser(email: string): User | null {
  try {
    const user = JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as User | null;
    return user && typeof user.email === 'string' && user.email.toLowerCase() === email.toLowerCase() ? user : null;
  } catch {
    return null;
  }
}

function keepUser(user: User | null): void {
  try {
    if (user) localStorage.setItem(USER_KEY, JSON.stringify(user));
    else localStorage.removeItem(USER_KEY);
  } catch {
    // Private windows may refuse storage; the session still works, only not through an outage.
  }
}

/**
 * On load, a stored token becomes a signed-in session (or is dropped if it no longer works).
 * When the server cannot be reached, the session goes on with the profile kept from the last
 * visit and is read again once the live connection is back; without one it asks again shortly.
 */
export function SessionBootstrap() {
  const [session, setSession] = useAtom(sessionAtom);
  // Counts the stored token's changes while the session is read: each starts the read again.
  const [reread, setReread] = useState(0);
  // A stored token that no longer works (expired, revoked, unreadable) ends the session, saying so.
  const endSession = useEndSession();

  // The profile is kept while signed in (sign-in, a refreshed profile) and dropped on sign-out.
  const user = session.status === 'signed-in' ? session.user : null;
  useEffect(() => {
    if (session.status !== 'loading') keepUser(user);
  }, [session.status, user]);

  useEffect(() => {
    if (session.status !== 'loading') return;
    const token = tokenStorage.get();
    const email = token ? emailFromToken(token) : null;
    if (!token) {
      setSession({ status: 'signed-out' });
      return;
    }
    if (!email) {
      endSession();
      return;
    }
    let alive = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopWaiting = () => undefined as void;
    const ask = (current: string): Promise<void> =>
      getProfile(email)
        .then(async (profile) => {
          // Another tab changed the stored token meanwhile: the read starts again (`reread`).
          if (!alive || tokenStorage.get() !== current) return;
          setSession({ status: 'signed-in', token: current, user: profile });
          // A fresh token keeps a returning visitor signed in; the old one still works meanwhile.
          const fresh = await refreshToken(email).catch(() => null);
          if (fresh?.token && tokenStorage.get() === current) {
            const renewed = fresh.token;
            tokenStorage.set(renewed);
            // The session holds the token it sends: a 401 is this tab's only if it refused that one.
            setSession((now) => (now.status === 'signed-in' && now.token === current ? { ...now, token: renewed } : now));
          }
        })
        .catch((error: unknown) => {
          logFailure(error);
          if (!alive) return;
          if (!isOutage(error)) {
            // Another tab stored a new token of this account meanwhile (its new password): ask
            // again with it, rather than clear it from under that tab.
            const now = tokenStorage.get();
            if (now && now !== current && isTokenOf(now, email)) {
              void ask(now);
              return;
            }
            endSession(current, error instanceof ApiError && error.status === 401 ? error.problem.detail : undefined);
            return;
          }
          const kept = cachedUser(email);
          if (!kept) {
            retry = setTimeout(() => void ask(current), PROFILE_RETRY_MS);
            return;
          }
          setSession({ status: 'signed-in', token: current, user: kept });
          // Back online: the profile is read again (a 401 then ends the session as usual).
          stopWaiting = onLiveReconnect(() => {
            stopWaiting();
            getProfile(email).then(
              (profile) => tokenStorage.get() === current && setSession({ status: 'signed-in', token: current, user: profile }),
              (failure: unknown) => logFailure(failure),
            );
          });
        });
    void ask(token);
    return () => {
      alive = false;
      clearTimeout(retry);
    };
  }, [session.status, reread, setSession, endSession]);

  // The browser's other tabs share its one stored token, and this tab follows it:
  // - a new token of the same account (the password was changed there, ADR 0060): this tab goes on
  //   with it, its live connection too, instead of holding on to one the server no longer takes;
  // - none (Log Out there): this tab is signed out too, as a shared computer needs;
  // - another account's (signed in there): this tab reads that session, rather than show one
  //   account while sending the other's token.
  const current = useRef(session);
  current.current = session;
  useEffect(() => {
    const follow = (e: StorageEvent) => {
      if (e.storageArea !== localStorage || e.key !== tokenStorage.key) return;
      const fresh = e.newValue;
      const now = current.current;
      if (now.status === 'loading') {
        setReread((n) => n + 1); // being read: read again with what is stored now
        return;
      }
      if (!fresh) {
        if (now.status === 'signed-out') return;
        const why = tokenStorage.endedWhy();
        if (why === 'account-gone') {
          // The account was deleted: logging in again cannot help, and this tab says so too.
          setSession({ status: 'signed-out', ended: { why: SESSION_REFUSED.accountGone } });
          toast.error(ACCOUNT_GONE_TEXT, { id: SESSION_ENDED_TOAST });
        } else if (why === 'ended') {
          // The server refused it there (a new password, signed out everywhere): said as here.
          setSession({ status: 'signed-out', ended: {} });
          toast.error(SESSION_ENDED_TEXT, { id: SESSION_ENDED_TOAST });
        } else {
          setSession({ status: 'signed-out', byUser: true });
          toast.success('You signed out in another tab.', { id: 'signed-out-elsewhere' });
        }
      } else if (now.status === 'signed-in' && isTokenOf(fresh, now.user.email)) {
        if (now.token !== fresh) setSession({ ...now, token: fresh });
      } else setSession({ status: 'loading' });
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, [setSession]);

  return null;
}
