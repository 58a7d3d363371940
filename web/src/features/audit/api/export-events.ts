import { apiRequest } from '@/lib/api-client';
import { filterToQuery, type TailFilter } from '../filter';

export type ExportFormat = 'ndjson' | 'csv';

const mime: Record<ExportFormat, string> = { ndjson: 'application/x-ndjson', csv: 'text/csv' };

/**
 * The filtered log as a file, fetched with the session's token (a plain link would go without
 * it) and saved from a Blob. The client reads the answer as text; a one-line NDJSON answer it
 * takes for JSON is written back as that line.
 */
export async function exportEvents(filter: TailFilter, format: ExportFormat): Promise<number> {
  const answer = await apiRequest<unknown>('/admin/events/export', { query: { ...filterToQuery(filter), format } });
  const text = answer === undefined ? '' : typeof answer === 'string' ? answer : `${JSON.stringify(answer)}\n`;
  const blob = new Blob([text], { type: mime[format] });
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
