import type { WriteAnswer } from '@tv-shop/contracts';
import { useAtomCallback } from 'jotai/utils';
import { useCallback } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useRowAction } from '@/lib/use-row-action';
import { productsStore, reportedProductsStore } from '../atoms';

/**
 * The admin keeps a reported TV: it leaves Reported Items and is no longer marked reported
 * anywhere. `reports`: how many the admin was shown; the server refuses when more came since.
 */
export const dismissReports = (id: string, reports: number) =>
  apiRequest<WriteAnswer>(`/product/dismiss_reports/${encodeURIComponent(id)}`, { method: 'PUT', body: { reports } });

/** `shown` answers how many reports of a product the admin's list shows. */
export function useDismissReports(shown: (id: string) => number) {
  const action = useAtomCallback(
    useCallback(
      async (_get, set, id: string) => {
        const answer = await dismissReports(id, shown(id));
        set(productsStore.patchAtom, id, answer.position, { reported: false });
        set(reportedProductsStore.patchAtom, id, answer.position, 'remove');
      },
      [shown],
    ),
  );
  return useRowAction(action, 'Reports dismissed: the listing stays');
}
