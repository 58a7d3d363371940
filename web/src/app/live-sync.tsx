import { CANCEL_REASON_TEXT, removedReasonText, type ChangePush, type Product } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect, useMemo } from 'react';
import toast from 'react-hot-toast';
import { addPushedDayAtom, addPushedEventAtom, clearPushedAtom } from '@/features/audit/atoms';
import { getProfile } from '@/features/auth/api/get-profile';
import { bookingsStore } from '@/features/bookings/atoms';
import { ownRemovedAtom, readOwnRemoved } from '@/features/products/api/get-own-removed';
import { productsStore, reportedProductsStore } from '@/features/products/atoms';
import { announceProductPush } from '@/features/products/use-seller-pushes';
import { usersStore } from '@/features/users/atoms';
import { ApiError, logFailure } from '@/lib/api-client';
import { connectLive } from '@/lib/live-socket';
import { refreshSessionUserAtom, sessionAtom, sessionTokenAtom, sessionUserAtom } from '@/lib/session';
import { listsReloadAtom, useWatchView } from '@/lib/use-live-list';

/**
 * Keeps one live connection (as visitor, or with the session's token) and routes each pushed
 * change into its entity store, where every open list sees it. The socket subscribes to the views
 * the open pages show (ADR 0045); besides them, a signed-in user always hears of their own account
 * (their bookings as buyer and seller: the new-booking notice shows anywhere in the app), and the
 * admin of what the admins hear.
 */
export function LiveSync() {
  const session = useAtomValue(sessionAtom);
  const token = useAtomValue(sessionTokenAtom);
  const user = useAtomValue(sessionUserAtom);
  const email = user?.email ?? null;
  const userId = user?._id ?? null;
  const admin = user?.role.toLowerCase() === 'admin';
  useWatchView(useMemo(() => (userId ? { kind: 'account' as const, userId } : null), [userId]));
  useWatchView(useMemo(() => (admin ? { kind: 'admin' as const } : null), [admin]));
  const applyProduct = useSetAtom(productsStore.applyAtom);
  const applyReported = useSetAtom(reportedProductsStore.applyAtom);
  const jotai = useStore();
  const applyBooking = useSetAtom(bookingsStore.applyAtom);
  const applyUser = useSetAtom(usersStore.applyAtom);
  const refreshSessionUser = useSetAtom(refreshSessionUserAtom);
  const reloadLists = useSetAtom(listsReloadAtom);
  const addLogEvent = useSetAtom(addPushedEventAtom);
  const addDay = useSetAtom(addPushedDayAtom);
  const clearPushed = useSetAtom(clearPushedAtom);
  // Wait for the stored token to be checked, so a returning user connects once, signed in.
  const ready = session.status !== 'loading';

  // Another account starts without the pushed log events the last one was sent.
  useEffect(() => clearPushed(), [email, clearPushed]);

  useEffect(() => {
    if (!ready) return;
    /** Pushes of the signed-in account's own row so far (a resync's read of it must not undo a newer one). */
    let ownRowsPushed = 0;
    const onChange = (push: ChangePush) => {
      switch (push.entity) {
        case 'product':
          announceProductPush(push, jotai.get(productsStore.stateAtom));
          if (push.op === 'remove') {
            const products = jotai.get(productsStore.stateAtom);
            // Not for a push older than what this tab has (a catch-up's replay).
            if (push.position > (products.positions.get(push.id) ?? -Infinity))
              announceRemovalToSeller(push.id, products.rows.get(push.id), push.sellerId);
          }
          return applyProduct(push);
        case 'reported_product':
          return applyReported(push);
        case 'booking':
          announceToSeller(push);
          return applyBooking(push);
        case 'user':
          // The signed-in account's own row too (its account view): the admin verified it, say.
          if (push.op === 'upsert') {
            if (push.id === jotai.get(sessionUserAtom)?._id) ownRowsPushed += 1;
            refreshSessionUser(push.row);
          }
          return applyUser(push);
        // The admin's event log and overview (only the admin's sockets receive these).
        case 'log_event':
          return addLogEvent(push.row);
        case 'daily_activity':
          return addDay({ row: push.row, position: push.position });
      }
    };
    // A seller hears of a new booking of one of their TVs wherever they are in the app, of one paid
    // for (the TV is sold: time to hand it over), and of a buyer calling one off (a cancellation by
    // the shop follows the seller's own act, or the sale just announced: no news).
    const announceToSeller = (push: Extract<ChangePush, { entity: 'booking' }>) => {
      if (push.op !== 'upsert' || !email) return;
      if (push.row.seller_email.toLowerCase() !== email.toLowerCase()) return;
      const before = jotai.get(bookingsStore.stateAtom).rows.get(push.id);
      if (push.row.status === 'open' && before?.status !== 'open')
        toast.success(`New booking: ${push.row.porduct_name} by ${push.row.username}`, { id: `booking-${push.id}-${push.position}` });
      else if (push.row.status === 'paid' && before?.status !== 'paid')
        toast.success(`${push.row.username} paid for ${push.row.porduct_name}: it is sold to them`, {
          id: `booking-${push.id}-${push.position}`,
        });
      else if (
        push.row.status === 'cancelled' &&
        // Not an earlier placing, kept as a row of its own when the TV was booked again (ADR 0063).
        !push.row.earlier_placing &&
        before?.status !== 'cancelled' &&
        push.row.cancel_reason === CANCEL_REASON_TEXT['buyer-cancelled']
      )
        toast(`${push.row.username} cancelled their booking of ${push.row.porduct_name}`, { id: `booking-${push.id}-${push.position}` });
    };
    // A seller's listing taken off by someone else (the admin, after a report) is told with a
    // word of why wherever the seller is: their account view hears its removal (ADR 0070), and a
    // page showing it loses it. The push carries no reason: their list of listings taken off
    // does, and My Products shows it read again. Their own withdrawal (this tab or another of
    // theirs) is no news, nor is a listing still there (it only left a view). Whose it was: the
    // push says (`sellerId`), else the row this tab had.
    const announceRemovalToSeller = (id: string, before: Product | undefined, sellerId: string | undefined) => {
      if (!userId || (sellerId ?? before?.sellerId) !== userId) return;
      readOwnRemoved(userId, (update) => jotai.set(ownRemovedAtom, update)).then((list) => {
        const removal = list.find((r) => r._id === id);
        if (removal && removal.reason !== 'withdrawn')
          toast(`${before?.porduct_name ?? removal.porduct_name}: ${removedReasonText(removal.reason)}.`, { id: `removed-${id}` });
      }, logFailure);
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
    // The server could not replay what this tab missed (or rebuilt a read model): the lists are
    // read again, and so is the signed-in account's own row, which its account view would have
    // brought (the admin verified the seller meanwhile, say). A 401 ends the session as above.
    // It is run up to 2 s later, maybe after a sign-in or sign-out: the account is the one signed in
    // then. A push of the row that comes while the read is under way is newer than its answer.
    const onResync = () => {
      reloadLists((n) => n + 1);
      const signedIn = jotai.get(sessionUserAtom);
      if (!signedIn) return;
      const pushedBefore = ownRowsPushed;
      void getProfile(signedIn.email).then(
        (row) => {
          if (ownRowsPushed === pushedBefore) refreshSessionUser(row);
        },
        () => {},
      );
    };
    return connectLive(token, { onChange, onResync, sessionStillValid });
  }, [
    ready,
    token,
    email,
    applyProduct,
    applyReported,
    applyBooking,
    applyUser,
    refreshSessionUser,
    reloadLists,
    jotai,
    addLogEvent,
    addDay,
  ]);

  return null;
}
