import type { ChangePush } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { bookingsStore } from '@/features/bookings/atoms';
import { productsStore } from '@/features/products/atoms';
import { usersStore } from '@/features/users/atoms';
import { connectLive } from '@/lib/live-socket';
import { sessionAtom, sessionTokenAtom } from '@/lib/session';

/**
 * Keeps one live connection (as visitor, or with the session's token) and routes each pushed
 * change into its entity store, where every open list sees it.
 */
export function LiveSync() {
  const session = useAtomValue(sessionAtom);
  const token = useAtomValue(sessionTokenAtom);
  const applyProduct = useSetAtom(productsStore.applyAtom);
  const applyBooking = useSetAtom(bookingsStore.applyAtom);
  const applyUser = useSetAtom(usersStore.applyAtom);
  // Wait for the stored token to be checked, so a returning user connects once, signed in.
  const ready = session.status !== 'loading';

  useEffect(() => {
    if (!ready) return;
    const dispatch = (push: ChangePush) => {
      switch (push.entity) {
        case 'product':
          return applyProduct(push);
        case 'booking':
          return applyBooking(push);
        case 'user':
          return applyUser(push);
      }
    };
    return connectLive(token, dispatch);
  }, [ready, token, applyProduct, applyBooking, applyUser]);

  return null;
}
