import type { WriteAnswer } from '@tv-shop/contracts';
import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { bookingsStore } from './atoms';

/** After the payment is recorded the booking shows Paid at once; the push confirms it. */
export function useMarkBookingPaid() {
  const patch = useSetAtom(bookingsStore.patchAtom);
  return useCallback(
    (id: string, answer: WriteAnswer, transationId: string) => patch(id, answer.position, { paid: true, status: 'paid', transationId }),
    [patch],
  );
}
