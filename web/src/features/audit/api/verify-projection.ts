import type { VerifyReport } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** Replays the log beside the projection's live tables and compares them (may take seconds; 409 while one runs). */
export const verifyProjection = (name: string) =>
  apiRequest<VerifyReport>(`/admin/projections/${encodeURIComponent(name)}/verify`, { method: 'POST', body: {} });
