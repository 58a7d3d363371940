/** Prices are TK everywhere, written by the one function the server's messages use too. */
export { formatTk } from '@tv-shop/contracts';

// Days are written one way everywhere: the day, the month by name, the year (29 November 2026 in
// a sentence; 29 Nov 2026 where space is short: a card, a table, the event log).

/** A UTC day (2026-11-29) as people read it: 29 November 2026. */
export const formatDay = (ymd: string) =>
  new Date(`${ymd}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A moment's day on this device's calendar, as a sentence says it: 29 November 2026. */
export const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/** A listing's `post_date` (the spec's d-m-yyyy, 29-11-2026) as a card says it: 29 Nov 2026; anything else as it came. */
export function formatPostDate(dmy: string): string {
  const [d, m, y] = dmy.split('-').map(Number);
  const day = new Date(Date.UTC(y ?? NaN, (m ?? NaN) - 1, d));
  if (Number.isNaN(day.getTime()) || day.getUTCDate() !== d) return dmy;
  return day.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A phone number as a link dials it: its digits and a leading +, nothing else (`tel:+8801711000000`). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;
