import { atom, useAtomValue, useSetAtom } from 'jotai';
import { SESSION_REFUSED, type Role, type User } from '@tv-shop/contracts';
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { endSessionOnServer } from './api-client';
import { tokenStorage } from './token-storage';

export type Session =
  | { status: 'loading' }
  /**
   * `byUser`: they pressed Log Out (a guarded page then sends them to a plain login page).
   * `ended`: the server refused the session's token, with its reason when it gave one.
   */
  | { status: 'signed-out'; byUser?: boolean; ended?: { why?: string } }
  | { status: 'signed-in'; token: string; user: User };

/** With a stored token the profile is still being fetched, so guards wait instead of redirecting. */
export const sessionAtom = atom<Session>(tokenStorage.get() ? { status: 'loading' } : { status: 'signed-out' });

export const sessionTokenAtom = atom((get) => {
  const session = get(sessionAtom);
  return session.status === 'signed-in' ? session.token : null;
});

export const sessionUserAtom = atom((get) => {
  const session = get(sessionAtom);
  return session.status === 'signed-in' ? session.user : null;
});

/**
 * The signed-in account as the identity read model has it now (a live push of the user's own
 * row): its name, photo and verified mark follow without signing in again. Its role stays the
 * one the session was opened with; a row of another account changes nothing.
 */
export const refreshSessionUserAtom = atom(null, (get, set, row: User) => {
  const session = get(sessionAtom);
  if (session.status !== 'signed-in' || session.user._id !== row._id) return;
  set(sessionAtom, { ...session, user: { ...row, role: session.user.role } });
});

/**
 * The signed-in account's own change of name or photo, said by this tab at once: merged into the
 * session as it is now (a push that came meanwhile, a verified mark, is kept).
 */
export const patchSessionUserAtom = atom(null, (get, set, patch: Partial<Pick<User, 'name' | 'photoURL'>>) => {
  const session = get(sessionAtom);
  if (session.status === 'signed-in') set(sessionAtom, { ...session, user: { ...session.user, ...patch } });
});

export const useSession = () => useAtomValue(sessionAtom);
export const useSessionUser = () => useAtomValue(sessionUserAtom);

/** The spec spells the admin role both 'Admin' and 'admin'. */
export function hasRole(user: User | null, role: Role): boolean {
  return !!user && user.role.toLowerCase() === role.toLowerCase();
}

export function useSignIn() {
  const setSession = useSetAtom(sessionAtom);
  return useCallback(
    (token: string, user: User) => {
      tokenStorage.set(token);
      setSession({ status: 'signed-in', token, user });
    },
    [setSession],
  );
}

export const SESSION_ENDED_TEXT = 'Your session has ended. Please log in again.';
export const ACCOUNT_GONE_TEXT = 'Your account was deleted, so you were signed out.';
/** The id of the toast that says so: a toast with this id said after it takes its place. */
export const SESSION_ENDED_TOAST = 'session-ended';

/** The server no longer accepts the token (account deleted, token revoked): drop it and say so. */
export function useEndSession() {
  const setSession = useSetAtom(sessionAtom);
  /**
   * `refused`: the token that ended; another account's token stored since (another tab) is left
   * alone. `why`: the server's reason ("This account no longer exists"), shown on the login page.
   */
  return useCallback(
    (refused?: string, why?: string) => {
      const stored = tokenStorage.get();
      const gone = why === SESSION_REFUSED.accountGone;
      if (refused === undefined || stored === refused) tokenStorage.clear(gone ? 'account-gone' : 'ended');
      setSession({ status: 'signed-out', ended: why ? { why } : {} });
      // Several calls may fail at once; one toast is enough. Logging in again cannot bring back
      // a deleted account: the toast says what the login page says.
      toast.error(gone ? ACCOUNT_GONE_TEXT : SESSION_ENDED_TEXT, { id: SESSION_ENDED_TOAST });
    },
    [setSession],
  );
}

/** Log Out: the token dropped here and in the browser's other tabs. `quiet`: the caller says it its own way. */
export function useSignOut() {
  const setSession = useSetAtom(sessionAtom);
  // This tab's own session (the stored token may already be another tab's newer sign-in).
  const token = useAtomValue(sessionTokenAtom);
  return useCallback(
    /** `endOnServer: false` when the session has already ended there (Sign out everywhere). */
    (opts: { quiet?: boolean; endOnServer?: boolean } = {}) => {
      // Not waited for: the tab signs out at once, and is told only if the server could not be.
      if (token && opts.endOnServer !== false)
        void endSessionOnServer(token).then((ended) => {
          if (!ended)
            toast.error(
              'Signed out here, but the server could not be told: this session works until it expires. To end it, sign in and use Sign out everywhere on your profile.',
              { id: 'sign-out-not-told', duration: 10_000 },
            );
        });
      tokenStorage.clear();
      setSession({ status: 'signed-out', byUser: true });
      if (!opts.quiet) toast.success('Sign-out successful.');
    },
    [setSession, token],
  );
}
