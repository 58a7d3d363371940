/** Prices are TK everywhere, written by the one function the server's messages use too. */
export { formatTk } from '@tv-shop/contracts';

/** A UTC day (2026-11-29) as people read it: 29 November 2026. */
export const formatDay = (ymd: string) =>
  new Date(`${ymd}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
