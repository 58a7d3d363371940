import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { getProfile } from '@/features/auth/api/get-profile';
import { refreshToken } from '@/features/auth/api/refresh-token';
import { sessionAtom } from '@/lib/session';
import { emailFromToken, tokenStorage } from '@/lib/token-storage';

/** On load, a stored token becomes a signed-in session (or is dropped if it no longer works). */
export function SessionBootstrap() {
  const [session, setSession] = useAtom(sessionAtom);

  useEffect(() => {
    if (session.status !== 'loading') return;
    const token = tokenStorage.get();
    const email = token ? emailFromToken(token) : null;
    if (!token || !email) {
      tokenStorage.clear();
      setSession({ status: 'signed-out' });
      return;
    }
    getProfile(email)
      .then(async (user) => {
        setSession({ status: 'signed-in', token, user });
        // A fresh token keeps a returning visitor signed in; the old one still works meanwhile.
        const fresh = await refreshToken(email).catch(() => null);
        if (fresh?.token && tokenStorage.get() === token) tokenStorage.set(fresh.token);
      })
      .catch((error: unknown) => {
        console.error(error);
        tokenStorage.clear();
        setSession({ status: 'signed-out' });
      });
  }, [session.status, setSession]);

  return null;
}
