import type { LogEvent } from '@tv-shop/contracts';
import { describe, expect, it } from 'vitest';
import { filterFromParams, matchesFilter, skipsAfter } from './filter';

const event: LogEvent = {
  position: 7,
  eventId: 'e7',
  at: '2025-03-01T10:00:00.000Z',
  type: 'ProductReported',
  streamId: 'product-p1',
  version: 1,
  actor: { id: 'u1', name: 'Rahim', role: 'Buyer' },
  correlationId: 'c1',
  causationId: null,
  data: { productId: 'p1' },
};

describe('the live tail filter', () => {
  it('reads only the filters set in the address', () => {
    expect(filterFromParams(new URLSearchParams('type=ProductReported&stream=&actor=%20u1%20&page=2'))).toEqual({
      type: 'ProductReported',
      actor: 'u1',
    });
  });

  it('lets a pushed event through only when every filter holds', () => {
    expect(matchesFilter(event, {})).toBe(true);
    expect(matchesFilter(event, { type: 'ProductReported', stream: 'product-p1', actor: 'u1', correlation: 'c1' })).toBe(true);
    expect(matchesFilter(event, { type: 'ProductListed' })).toBe(false);
    expect(matchesFilter(event, { cause: 'e1' })).toBe(false);
    expect(matchesFilter(event, { from: '2025-03-01T10:00:00.000Z', to: '2025-03-01T11:00:00.000Z' })).toBe(true);
    expect(matchesFilter(event, { to: '2025-03-01T09:59:59.000Z' })).toBe(false);
  });

  it('reads a bare date and an actor id as the server does: up to the end of that day, without regard to case', () => {
    expect(matchesFilter(event, { to: '2025-03-01' })).toBe(true);
    expect(matchesFilter(event, { to: '2025-02-28' })).toBe(false);
    expect(matchesFilter(event, { from: '2025-03-01', to: '2025-03-01' })).toBe(true);
    expect(matchesFilter(event, { actor: 'U1' })).toBe(true);
    expect(matchesFilter(event, { actor: 'u2' })).toBe(false);
  });

  it('cannot judge an actor given by email: the server is asked', () => {
    expect(matchesFilter(event, { actor: 'rahim@example.com' })).toBeUndefined();
    expect(matchesFilter(event, { actor: 'rahim@example.com', type: 'ProductListed' })).toBe(false);
  });
});

describe('a gap in the pushed events', () => {
  const at = (...positions: number[]) => positions.map((position) => ({ ...event, position }));

  it('is none when every position after the page follows the last', () => {
    expect(skipsAfter(at(13, 12, 11), 10)).toBe(false);
    expect(skipsAfter([], 10)).toBe(false);
    // Pushes from before the page was read do not count.
    expect(skipsAfter(at(11, 9, 4), 10)).toBe(false);
  });

  it('is found right after the page, or between two pushes', () => {
    // The event log caught up on 11 and 12 without pushing them.
    expect(skipsAfter(at(14, 13), 10)).toBe(true);
    expect(skipsAfter(at(15, 13, 12, 11), 10)).toBe(true);
  });
});
