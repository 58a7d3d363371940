import { apiRequest } from '@/lib/api-client';
import { filterToQuery, type TailFilter } from '../filter';

export type ExportFormat = 'ndjson' | 'csv';

const mime: Record<ExportFormat, string> = { ndjson: 'application/x-ndjson', csv: 'text/csv' };

/**
 * The filtered log as a file, fetched with the session's token (a plain link would go without
 * it) and saved from a Blob as the server sent it (never held as one string: a whole log can be
 * larger than a string may be). A download the server cut short (a fault part way) fails here
 * and saves nothing, so that a part cannot pass for the whole.
 */
export async function exportEvents(filter: TailFilter, format: ExportFormat): Promise<number> {
  const answer = await apiRequest<Blob>('/admin/events/export', { query: { ...filterToQuery(filter), format }, asBlob: true });
  const blob = new Blob([answer], { type: mime[format] });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `tv-shop-events-${new Date().toISOString().replace(/[:.]/g, '-')}.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return blob.size;
}
