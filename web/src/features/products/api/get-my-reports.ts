import { apiRequest } from '@/lib/api-client';

/** The ids of the listings the signed-in buyer reported that are still reported (`GET /api/reports/mine`). */
export const getMyReports = () => apiRequest<string[]>('/reports/mine');
