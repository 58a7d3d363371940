import type { WriteAnswer } from '@tv-shop/contracts';
import { useAtomCallback } from 'jotai/utils';
import { useCallback } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useRowAction } from '@/lib/use-row-action';
import { productsStore, reportedProductsStore } from '../atoms';

/** The admin keeps a reported TV: it leaves Reported Items and is no longer marked reported anywhere. */
export const dismissReports = (id: string) =>
  apiRequest<WriteAnswer>(`/product/dismiss_reports/${encodeURIComponent(id)}`, { method: 'PUT' });

export function useDismissReports() {
  const action = useAtomCallback(
    useCallback(async (_get, set, id: string) => {
      const answer = await dismissReports(id);
      set(productsStore.patchAtom, id, answer.position, { reported: false });
      set(reportedProductsStore.patchAtom, id, answer.position, 'remove');
    }, []),
  );
  return useRowAction(action, 'Reports dismissed: the listing stays');
}
