import type { AdminOverview, DailyActivity, LogEvent } from '@tv-shop/contracts';
import { describe, expect, it } from 'vitest';
import { mergeOverview, pushedBefore } from './merge-overview';

const day = (d: string, listings = 0, paidPoisha = 0): DailyActivity => ({
  day: d,
  listings,
  bookings: 0,
  payments: 0,
  paidPoisha,
  reports: 0,
});
const event = (position: number): LogEvent => ({
  position,
  eventId: `e${position}`,
  at: '2025-03-02T10:00:00.000Z',
  type: 'ProductListed',
  streamId: 'product-p',
  version: 0,
  actor: { id: 'u', name: null, role: 'Seller' },
  correlationId: 'c',
  causationId: null,
  data: {},
});

const overview: AdminOverview = {
  days: [day('2025-03-01', 2), day('2025-03-02', 1, 500)],
  totals: { listings: 10, bookings: 0, payments: 0, paidPoisha: 500, reports: 0 },
  openReports: 0,
  recent: [event(9), event(8)],
  lag: [],
  head: 9,
};

describe('the overview kept current by pushes', () => {
  it('when a day older than the days read is pushed (a catch-up on old events), then the totals stay and the page asks for a read', () => {
    const days = new Map([['2025-02-01', { row: day('2025-02-01', 4), position: 12 }]]);
    const merged = mergeOverview(overview, days, []);
    expect(merged.totals).toEqual(overview.totals);
    expect(merged.days.map((d) => d.day)).toEqual(['2025-03-01', '2025-03-02']);
    expect(pushedBefore(overview, days)).toBe(true);
    // Already in the read (at or before its head), or one of its days: nothing to ask.
    expect(pushedBefore(overview, new Map([['2025-02-01', { row: day('2025-02-01', 4), position: 9 }]]))).toBe(false);
    expect(pushedBefore(overview, new Map([['2025-03-01', { row: day('2025-03-01', 4), position: 12 }]]))).toBe(false);
  });

  it("when a day's figures are pushed, then that day is replaced and the totals move by the difference", () => {
    const days = new Map([['2025-03-02', { row: day('2025-03-02', 3, 1500), position: 11 }]]);
    const merged = mergeOverview(overview, days, []);
    expect(merged.days.map((d) => d.listings)).toEqual([2, 3]);
    expect(merged.totals.listings).toBe(12);
    expect(merged.totals.paidPoisha).toBe(1500);
  });

  it('when a new day is pushed, then it is added at the end; a push older than the read is ignored', () => {
    const days = new Map([
      ['2025-03-03', { row: day('2025-03-03', 1), position: 12 }],
      ['2025-03-01', { row: day('2025-03-01', 99), position: 5 }],
    ]);
    const merged = mergeOverview(overview, days, []);
    expect(merged.days.map((d) => [d.day, d.listings])).toEqual([
      ['2025-03-01', 2],
      ['2025-03-02', 1],
      ['2025-03-03', 1],
    ]);
    expect(merged.totals.listings).toBe(11);
  });

  it('puts pushed events on top of the feed, once each', () => {
    const merged = mergeOverview(overview, new Map(), [event(11), event(10), event(9)]);
    expect(merged.recent.map((e) => e.position)).toEqual([11, 10, 9, 8]);
    expect(merged.head).toBe(11);
  });
});
