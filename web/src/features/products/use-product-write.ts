import type { Product, WriteAnswer } from '@tv-shop/contracts';
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '@/lib/api-client';
import { usePatchProduct } from './use-patch-product';

/**
 * One product action (sold, advertise, report, delete): call the server, show the spec's toast,
 * patch the row at once. `pendingId` lets a table show which row is busy.
 */
export function useProductWrite(call: (id: string) => Promise<WriteAnswer>, patch: Partial<Product> | 'remove', successText: string) {
  const patchProduct = usePatchProduct();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const run = useCallback(
    async (id: string) => {
      setPendingId(id);
      try {
        patchProduct(id, await call(id), patch);
        toast.success(successText);
      } catch (error) {
        console.error(error);
        toast.error(errorMessage(error));
      } finally {
        setPendingId(null);
      }
    },
    [call, patch, patchProduct, successText],
  );
  return { run, pendingId };
}
