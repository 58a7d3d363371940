import type { ChangePush } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { getProfile } from '@/features/auth/api/get-profile';
import { bookingsStore } from '@/features/bookings/atoms';
import { productsStore } from '@/features/products/atoms';
import { usersStore } from '@/features/users/atoms';
import { ApiError } from '@/lib/api-client';
import { connectLive } from '@/lib/live-socket';
import { sessionAtom, sessionTokenAtom, sessionUserAtom } from '@/lib/session';
import { listsReloadAtom } from '@/lib/use-live-list';

/**
 * Keeps one live connection (as visitor, or with the session's token) and routes each pushed
 * change into its entity store, where every open list sees it.
 */
export function LiveSync() {
  const session = useAtomValue(sessionAtom);
  const token = useAtomValue(sessionTokenAtom);
  const email = useAtomValue(sessionUserAtom)?.email ?? null;
  const applyProduct = useSetAtom(productsStore.applyAtom);
  const applyBooking = useSetAtom(bookingsStore.applyAtom);
  const applyUser = useSetAtom(usersStore.applyAtom);
  const reloadLists = useSetAtom(listsReloadAtom);
  // Wait for the stored token to be checked, so a returning user connects once, signed in.
  const ready = session.status !== 'loading';

  useEffect(() => {
    if (!ready) return;
    const onChange = (push: ChangePush) => {
      switch (push.entity) {
        case 'product':
          return applyProduct(push);
        case 'booking':
          return applyBooking(push);
        case 'user':
          return applyUser(push);
      }
    };
    // A 401 here also ends the session through the API client, which replaces this socket.
    const sessionStillValid = async () => {
      if (!email) return true;
      try {
        await getProfile(email);
        return true;
      } catch (error) {
        return !(error instanceof ApiError && error.status === 401);
      }
    };
    return connectLive(token, { onChange, onResync: () => reloadLists((n) => n + 1), sessionStillValid });
  }, [ready, token, email, applyProduct, applyBooking, applyUser, reloadLists]);

  return null;
}
