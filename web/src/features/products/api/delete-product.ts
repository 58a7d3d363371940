import type { WriteAnswer } from '@tv-shop/contracts';
import { useCallback } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

/**
 * The admin removes a reported listing; it vanishes from every open page by push. `paidSale`:
 * whether the question the admin answered said a buyer had paid; the server refuses (409) when
 * that changed since, or when the listing's reports were dismissed meanwhile.
 */
export const deleteProduct = (id: string, paidSale: boolean) =>
  apiRequest<WriteAnswer>(`/product/${encodeURIComponent(id)}`, { method: 'DELETE', body: { reported: true, paid_sale: paidSale } });

const patch = 'remove' as const;

/** `asked` answers whether the Delete question the admin confirmed said a buyer had paid. */
export const useDeleteProduct = (asked: (id: string) => boolean) =>
  useProductWrite(
    useCallback((id: string) => deleteProduct(id, asked(id)), [asked]),
    patch,
    'Successfully Delete Reported Product',
  );
