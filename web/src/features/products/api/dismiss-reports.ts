import type { WriteAnswer } from '@tv-shop/contracts';
import { useCallback } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

/**
 * The admin keeps a reported TV: it leaves Reported Items and is no longer marked reported
 * anywhere. `reports`: how many the admin was shown; the server refuses when more came since.
 */
export const dismissReports = (id: string, reports: number) =>
  apiRequest<WriteAnswer>(`/product/dismiss_reports/${encodeURIComponent(id)}`, { method: 'PUT', body: { reports } });

const patch = { reported: false };

/** `shown` answers how many reports of a product the admin's list shows. */
export const useDismissReports = (shown: (id: string) => number) =>
  useProductWrite(
    useCallback((id: string) => dismissReports(id, shown(id)), [shown]),
    patch,
    'Reports dismissed: the listing stays',
  );
