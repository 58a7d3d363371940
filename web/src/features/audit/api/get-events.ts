import type { LogEvent, LogPage } from '@tv-shop/contracts';
import { apiRequest } from '@/lib/api-client';
import { filterToQuery, type TailFilter } from '../filter';

export const PAGE_SIZE = 50;

/** The filtered log newest first; `before` (a page's `next`) reads the older ones. */
export const getEventsNewestFirst = (filter: TailFilter, before?: number) =>
  apiRequest<LogPage>('/admin/events', {
    query: {
      ...filterToQuery(filter),
      order: 'desc',
      limit: String(PAGE_SIZE),
      ...(before === undefined ? {} : { before: String(before) }),
    },
  });

/** The filtered log oldest first from `after` (exclusive): what came since a page was read. */
export const getEventsAfter = (filter: TailFilter, after: number) =>
  apiRequest<LogPage>('/admin/events', { query: { ...filterToQuery(filter), after: String(after), limit: '200' } });

/** One event by its id: the cause an effect names. */
export const getEvent = (eventId: string) => apiRequest<LogEvent>(`/admin/events/${encodeURIComponent(eventId)}`);

/** The events one event caused (their `causationId` is it), oldest first. */
export const getEffects = (eventId: string) => apiRequest<LogPage>('/admin/events', { query: { cause: eventId, limit: '200' } });
