import type { WriteAnswer } from '@tv-shop/contracts';
import { useAtomCallback } from 'jotai/utils';
import { useCallback } from 'react';
import { bookingsStore } from './atoms';

/** After the payment is recorded the booking shows Paid at once; the push confirms it. */
export function useMarkBookingPaid() {
  return useAtomCallback(
    useCallback((get, set, id: string, answer: WriteAnswer, transationId: string) => {
      const row = get(bookingsStore.stateAtom).rows.get(id);
      if (!row) return;
      set(bookingsStore.applyAtom, {
        op: 'upsert',
        id,
        row: { ...row, paid: true, transationId },
        position: answer.position - 0.5,
      });
    }, []),
  );
}
