import type { StreamHistory } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * A stream's entity as of log position `at` (now when absent), with the last `limit` of its
 * events up to then (the server's 100 when absent; 0 for the state alone).
 */
export const getStream = (streamId: string, options: { at?: number; limit?: number } = {}) => {
  const query: Record<string, string> = {};
  if (options.at !== undefined) query.at = String(options.at);
  if (options.limit !== undefined) query.limit = String(options.limit);
  return apiRequest<StreamHistory>(`/admin/streams/${encodeURIComponent(streamId)}`, Object.keys(query).length ? { query } : {});
};
