import { describe, expect, it } from 'vitest';
import { resaleAboveOriginal } from './resale-warning';

describe('the resale price above the original', () => {
  it('is told when both are prices and the resale is the higher, read as numbers with their group commas', () => {
    expect(resaleAboveOriginal('60000', '50000')).toBe(true);
    expect(resaleAboveOriginal('60,000', '50,000.50')).toBe(true);
    // "9000" > "10000" as text; as prices it is below.
    expect(resaleAboveOriginal('9000', '10000')).toBe(false);
    expect(resaleAboveOriginal('50000', '50000')).toBe(false);
    expect(resaleAboveOriginal('18,500', '42000')).toBe(false);
  });

  it('is not told while either box is empty or not a price (their own rules speak then)', () => {
    for (const [resale, original] of [
      ['', '50000'],
      ['60000', ''],
      ['abc', '50000'],
      ['60000', '5k'],
      [undefined, '1'],
      ['2', undefined],
    ])
      expect(resaleAboveOriginal(resale, original), `${resale} / ${original}`).toBe(false);
  });
});
