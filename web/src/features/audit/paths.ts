/** The admin's audit pages: the event log and one stream's timeline (`at` = a log position to open on). */
export const auditPaths = {
  events: { path: '/dashboard/events', href: () => '/dashboard/events', title: 'Event Log' },
  stream: {
    path: '/dashboard/events/stream/:streamId',
    href: (streamId: string, at?: number) =>
      `/dashboard/events/stream/${encodeURIComponent(streamId)}${at === undefined ? '' : `?at=${at}`}`,
    title: 'Stream Timeline',
  },
} as const;
