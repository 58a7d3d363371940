import { describe, expect, it } from 'vitest';
import { heldRange, PRICE_SENTENCES, priceProblem, priceRefusal } from './price-range';

describe('a price range typed in the filters', () => {
  it('is fine empty, with either end alone, or with min at most max (spaces and decimals allowed)', () => {
    expect(priceProblem('', '')).toBeNull();
    expect(priceProblem('10000', '')).toBeNull();
    expect(priceProblem('', '30000')).toBeNull();
    expect(priceProblem(' 10000 ', '30000')).toBeNull();
    expect(priceProblem('20000', '20000')).toBeNull();
    expect(priceProblem('0', '100000000')).toBeNull();
    expect(priceProblem('9999.5', '10000')).toBeNull();
    expect(priceProblem('.5', '25000.')).toBeNull();
    // Grouped as people write prices, by thousands or by lakhs.
    expect(priceProblem('9,000', '10,000')).toBeNull();
    expect(priceProblem('1,20,000', '1,000,000.50')).toBeNull();
    expect(priceProblem('20,000', '10000')?.fields).toEqual(['minPrice', 'maxPrice']);
  });

  it('when min is above max, then both boxes are at fault, compared as numbers, not as text', () => {
    expect(priceProblem('30000', '10000')).toEqual({ message: 'Min price must not be above max price', fields: ['minPrice', 'maxPrice'] });
    // "9000" > "10000" as text; as prices it is below.
    expect(priceProblem('9000', '10000')).toBeNull();
  });

  it('when a box holds what is not a price, then that box is at fault, before any comparison', () => {
    for (const text of [
      'abc',
      '25k',
      '25,00',
      '1,50',
      '0,500',
      ',25000',
      '-5',
      '1e5',
      '1.2.3',
      '.',
      'NaN',
      'Infinity',
      '1.123456789',
      '12345678901234567',
    ]) {
      expect(priceProblem(text, ''), text).toEqual({ message: PRICE_SENTENCES.notAPrice, fields: ['minPrice'] });
    }
    expect(priceProblem('30000', 'lots')).toEqual({ message: PRICE_SENTENCES.notAPrice, fields: ['maxPrice'] });
    expect(priceProblem('x', 'y')).toEqual({ message: 'Enter both prices in TK, like 25000 or 38,000', fields: ['minPrice', 'maxPrice'] });
    expect(priceProblem('-5', 'abc')?.message).toBe(PRICE_SENTENCES.neitherAPrice);
    expect(PRICE_SENTENCES.notAPrice).toMatch(/^Enter a price in TK/);
  });

  it('when a price is above what the server searches by, then it says the highest', () => {
    expect(priceProblem('', '100000001')).toEqual({ message: 'Enter a price of at most 100,000,000 TK', fields: ['maxPrice'] });
  });
});

describe("the server's refusal of a search's prices", () => {
  it('is said in the same words as the filters', () => {
    expect(priceRefusal('minPrice must not be more than maxPrice')).toBe(PRICE_SENTENCES.minAboveMax);
    expect(priceRefusal('maxPrice Invalid input: expected number, received NaN')).toBe(PRICE_SENTENCES.notAPrice);
    expect(priceRefusal('minPrice must be a number')).toBe(PRICE_SENTENCES.notAPrice);
    expect(priceRefusal('minPrice must be 0 or more')).toBe(PRICE_SENTENCES.notAPrice);
    expect(priceRefusal('maxPrice is too large')).toBe(PRICE_SENTENCES.tooHigh);
  });

  it('leaves any other failure to the usual error with Retry', () => {
    expect(priceRefusal('The catalog is resting; try again shortly.')).toBeNull();
    expect(priceRefusal('q must be at most 200 characters')).toBeNull();
    expect(priceRefusal('minPriceless is not a field')).toBeNull();
  });
});

describe('heldRange', () => {
  it('says the range the list still shows while a typed price is being fixed', () => {
    expect(heldRange('12000', '20000')).toBe('The list still shows TVs from 12,000 TK to 20,000 TK.');
    expect(heldRange('12000', '')).toBe('The list still shows TVs from 12,000 TK.');
    expect(heldRange('', '20,000')).toBe('The list still shows TVs up to 20,000 TK.');
    expect(heldRange('', '')).toBe('The list still shows TVs at any price.');
  });
});
