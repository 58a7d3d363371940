import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTING_LIMITS, limitsOn, listingLimitsFromEnv } from './limits';

describe('listingLimitsFromEnv', () => {
  it('when neither variable is set, or they are blank (as compose passes them), then 100 for sale and 30 an hour', () => {
    expect(listingLimitsFromEnv({})).toEqual({ active: 100, perHour: 30 });
    expect(listingLimitsFromEnv({ LISTING_LIMIT_ACTIVE: '', LISTING_LIMIT_PER_HOUR: '  ' })).toEqual(DEFAULT_LISTING_LIMITS);
  });

  it('when both are set, then each is read into its own limit; 0 turns that one off', () => {
    expect(listingLimitsFromEnv({ LISTING_LIMIT_ACTIVE: '5', LISTING_LIMIT_PER_HOUR: ' 2 ' })).toEqual({ active: 5, perHour: 2 });
    const off = listingLimitsFromEnv({ LISTING_LIMIT_ACTIVE: '0', LISTING_LIMIT_PER_HOUR: '0' });
    expect(off).toEqual({ active: 0, perHour: 0 });
    expect(limitsOn(off)).toBe(false);
    expect(limitsOn(listingLimitsFromEnv({ LISTING_LIMIT_ACTIVE: '0' }))).toBe(true);
  });

  it('when a value is not a whole number of 0 or more, then the start stops naming the variable and the value', () => {
    for (const bad of ['-1', '2.5', 'ten', '1e3', '0x10', '99999999999999999999']) {
      expect(() => listingLimitsFromEnv({ LISTING_LIMIT_ACTIVE: bad })).toThrow(`Invalid environment variable LISTING_LIMIT_ACTIVE`);
      expect(() => listingLimitsFromEnv({ LISTING_LIMIT_PER_HOUR: bad })).toThrow(
        new RegExp(`LISTING_LIMIT_PER_HOUR: .*"${bad.replace('.', '\\.')}"`),
      );
    }
  });
});
