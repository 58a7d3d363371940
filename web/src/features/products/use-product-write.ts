import type { Product, WriteAnswer } from '@tv-shop/contracts';
import { useCallback } from 'react';
import { useRowAction } from '@/lib/use-row-action';
import { usePatchProduct } from './use-patch-product';

/**
 * One product action (sold, advertise, report, delete): call the server, show the spec's toast,
 * patch the row at once. `isPending` lets a table show which rows are busy.
 */
export function useProductWrite(call: (id: string) => Promise<WriteAnswer>, patch: Partial<Product> | 'remove', successText: string) {
  const patchProduct = usePatchProduct();
  const action = useCallback(async (id: string) => patchProduct(id, await call(id), patch), [call, patch, patchProduct]);
  return useRowAction(action, successText);
}
