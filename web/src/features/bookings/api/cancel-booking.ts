import { CANCEL_REASON_TEXT, type WriteAnswer } from '@tv-shop/contracts';
import { useAtomCallback } from 'jotai/utils';
import { useCallback } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useRowAction } from '@/lib/use-row-action';
import { bookingsStore } from '../atoms';

/** The buyer calls off their own unpaid booking; it stays in My Orders, cancelled (ADR 0058). */
export const cancelBooking = (id: string) => apiRequest<WriteAnswer>(`/bookings/${encodeURIComponent(id)}/cancel`, { method: 'POST' });

/** Cancel from My Orders: the row turns Cancelled at once (the push says the same a moment later). */
export function useCancelBooking() {
  const patch = useAtomCallback(
    useCallback((_get, set, id: string, answer: WriteAnswer) => {
      set(bookingsStore.patchAtom, id, answer.position, { status: 'cancelled', cancel_reason: CANCEL_REASON_TEXT['buyer-cancelled'] });
    }, []),
  );
  const action = useCallback(async (id: string) => patch(id, await cancelBooking(id)), [patch]);
  return useRowAction(action, 'Booking cancelled');
}
