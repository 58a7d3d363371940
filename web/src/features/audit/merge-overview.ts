import type { AdminOverview, DailyActivity, LogEvent } from '@tv-shop/contracts';

const DAYS = 30;
const FEED = 12;
type Totals = AdminOverview['totals'];
const figures = ['listings', 'bookings', 'payments', 'paidPoisha', 'reports'] as const satisfies readonly (keyof Totals)[];

/**
 * The overview as read, moved on by pushes: each pushed day replaces that day's figures (and
 * adds its difference to the totals), each pushed event goes on top of the feed.
 */
export function mergeOverview(
  overview: AdminOverview,
  days: ReadonlyMap<string, { row: DailyActivity; position: number }>,
  pushed: readonly LogEvent[],
): AdminOverview {
  const byDay = new Map(overview.days.map((d) => [d.day, d]));
  const totals = { ...overview.totals };
  const first = overview.days[0]?.day;
  for (const { row, position } of days.values()) {
    if (position <= overview.head) continue;
    // Older than the days read: what changed in it is not known here (`pushedBefore` asks for a read).
    if (first !== undefined && row.day < first) continue;
    const was = byDay.get(row.day);
    for (const key of figures) totals[key] += row[key] - (was?.[key] ?? 0);
    byDay.set(row.day, row);
  }
  const merged = [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day)).slice(-DAYS);
  const fresh = pushed.filter((e) => e.position > overview.head);
  const seen = new Set(fresh.map((e) => e.position));
  const recent = [...fresh, ...overview.recent.filter((e) => !seen.has(e.position))].slice(0, FEED);
  return { ...overview, days: merged, totals, recent, head: Math.max(overview.head, fresh[0]?.position ?? 0) };
}

/**
 * Whether a day older than the overview's first was pushed after its read (the projector caught
 * up on old events): its change cannot be added to the totals, and the overview is read again.
 */
export function pushedBefore(overview: AdminOverview, days: ReadonlyMap<string, { row: DailyActivity; position: number }>): boolean {
  const first = overview.days[0]?.day;
  if (first === undefined) return false;
  for (const { row, position } of days.values()) if (position > overview.head && row.day < first) return true;
  return false;
}
