import type { LogEvent, LogFilter } from '@tv-shop/contracts';
import { KEEP_PUSHED } from './atoms';

/** The event log's filters, as they sit in the page's address (so a filtered view can be linked to). */
export type TailFilter = Pick<LogFilter, 'type' | 'stream' | 'actor' | 'correlation' | 'cause' | 'from' | 'to'>;

const keys = ['type', 'stream', 'actor', 'correlation', 'cause', 'from', 'to'] as const satisfies readonly (keyof TailFilter)[];

export function filterFromParams(params: URLSearchParams): TailFilter {
  const filter: TailFilter = {};
  for (const key of keys) {
    const value = params.get(key)?.trim();
    if (value) filter[key] = value;
  }
  return filter;
}

/** The filter as query parameters: only the ones set. */
export function filterToQuery(filter: TailFilter): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of keys) {
    const value = filter[key];
    if (value) query[key] = value;
  }
  return query;
}

export const isFiltered = (filter: TailFilter) => keys.some((key) => !!filter[key]);

/**
 * Whether a pushed event belongs in the filtered tail. An actor given by email cannot be told
 * from the event (it names the actor by id): `undefined` then, and the server is asked instead.
 */
export function matchesFilter(event: LogEvent, filter: TailFilter): boolean | undefined {
  if (filter.type && event.type !== filter.type) return false;
  if (filter.stream && event.streamId !== filter.stream) return false;
  if (filter.correlation && event.correlationId !== filter.correlation) return false;
  if (filter.cause && event.causationId !== filter.cause) return false;
  const at = Date.parse(event.at);
  if (filter.from && at < Date.parse(filter.from)) return false;
  if (filter.to && at > untilOf(filter.to)) return false;
  if (filter.actor) {
    if (filter.actor.includes('@')) return undefined;
    // Ids are compared as the server does: without regard to case.
    if (event.actor.id.toLowerCase() !== filter.actor.toLowerCase()) return false;
  }
  return true;
}

/** As the server reads `to`: a bare date (a shared link's `to=2026-11-22`) means up to that day's end. */
const untilOf = (to: string) => (/^\d{4}-\d{2}-\d{2}$/.test(to) ? Date.parse(to) + 86_400_000 - 1 : Date.parse(to));

/**
 * Whether the pushed events (newest first) skip a position after `from`: every event of the log
 * is pushed to the admin in order, so a skipped one was not sent. When the tab's pushes are full
 * (`KEEP_PUSHED`), the oldest it kept may follow ones it let go: the look starts at the oldest kept.
 */
export function skipsAfter(pushed: readonly LogEvent[], since: number): boolean {
  const from = pushed.length >= KEEP_PUSHED ? Math.max(since, (pushed.at(-1)?.position ?? 0) - 1) : since;
  let last = from;
  for (let i = pushed.length - 1; i >= 0; i--) {
    const { position } = pushed[i]!;
    if (position <= from) continue;
    if (position > last + 1) return true;
    last = position;
  }
  return false;
}
