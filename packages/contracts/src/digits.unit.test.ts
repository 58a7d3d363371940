import { describe, expect, it } from 'vitest';
import { formatTk } from './digits';

describe('a price as shown', () => {
  it('given whole TK, then grouped by thousands with no decimals', () => {
    expect(formatTk(21000)).toBe('21,000 TK');
    expect(formatTk(0)).toBe('0 TK');
  });
  it('given poisha, then always two decimals, so 1,999.5 reads as the price tag does', () => {
    expect(formatTk(1999.5)).toBe('1,999.50 TK');
    expect(formatTk(0.05)).toBe('0.05 TK');
  });
});
