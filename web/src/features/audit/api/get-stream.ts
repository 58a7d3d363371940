import type { StreamHistory } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';

/** A stream's entity as of log position `at` (now when absent), with its events up to then. */
export const getStream = (streamId: string, at?: number) =>
  apiRequest<StreamHistory>(`/admin/streams/${encodeURIComponent(streamId)}`, at === undefined ? {} : { query: { at: String(at) } });
