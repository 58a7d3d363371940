import { describe, expect, it } from 'vitest';
import { postDate } from './dates';

describe("a listing's post date", () => {
  it('given a listing made early in the morning in Dhaka (still the day before in UTC), then it is dated that morning', () => {
    // 05:30 in Dhaka on 1 December is 23:30 UTC on 30 November.
    expect(postDate(new Date('2026-11-30T23:30:00Z'))).toBe('1-12-2026');
  });
  it('given a listing late in the evening in Dhaka, then it keeps that day', () => {
    expect(postDate(new Date('2026-11-30T17:59:00Z'))).toBe('30-11-2026');
    expect(postDate(new Date('2026-12-31T18:00:00Z'))).toBe('1-1-2027');
  });
});
