import type { WriteAnswer } from '@tv-shop/contracts';
import { useCallback } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useProductWrite } from '../use-product-write';

/**
 * The admin keeps a reported TV: it leaves Reported Items and is no longer marked reported
 * anywhere. `reportsTaken`: the listing's count of every report it had, as the admin was shown
 * it; the server refuses when one came since (even after another admin's dismissal).
 */
export const dismissReports = (id: string, reportsTaken: number) =>
  apiRequest<WriteAnswer>(`/product/dismiss_reports/${encodeURIComponent(id)}`, { method: 'PUT', body: { reports_taken: reportsTaken } });

const patch = { reported: false };

/** `shown` answers a product's `reports_taken` as the admin was shown it when they chose to dismiss. */
export const useDismissReports = (shown: (id: string) => number) =>
  useProductWrite(
    useCallback((id: string) => dismissReports(id, shown(id)), [shown]),
    patch,
    'Reports dismissed: the listing stays',
  );
