import { describe, expect, it } from 'vitest';
import { formatDay, formatPostDate } from './format';

describe('days as people read them', () => {
  it('writes a listing’s post_date (d-m-yyyy, unpadded) with the month by name', () => {
    expect(formatPostDate('29-11-2026')).toBe('29 Nov 2026');
    expect(formatPostDate('1-2-2026')).toBe('1 Feb 2026');
    expect(formatPostDate('01-02-2026')).toBe('1 Feb 2026');
  });

  it('leaves a post_date that is not a day as it came, rather than inventing one', () => {
    expect(formatPostDate('31-2-2026')).toBe('31-2-2026');
    expect(formatPostDate('2026-11-29')).toBe('2026-11-29');
    expect(formatPostDate('yesterday')).toBe('yesterday');
  });

  it('writes a UTC day in full', () => {
    expect(formatDay('2026-11-29')).toBe('29 November 2026');
  });
});
