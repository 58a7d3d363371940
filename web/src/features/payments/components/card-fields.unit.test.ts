import { describe, expect, it } from 'vitest';
import { cardNumberProblem, cvcProblem, expiryProblem, formatCardNumber, formatExpiry, parseExpiry } from './card-fields';

describe('card fields', () => {
  it('groups the card number in fours as it is typed, digits only', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('42424')).toBe('4242 4');
    expect(formatCardNumber('4242 4242-4242x4242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 ')).toBe('4242');
    expect(formatCardNumber('12345678901234567890123')).toBe('1234 5678 9012 3456 789');
  });

  it('puts the slash into the expiry however it is typed', () => {
    expect(formatExpiry('1230')).toBe('12/30');
    expect(formatExpiry('12/30')).toBe('12/30');
    expect(formatExpiry('12 / 30')).toBe('12/30');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('12/')).toBe('12');
    expect(formatExpiry('12/2030')).toBe('12/2030');
    expect(parseExpiry('12/30')).toEqual({ exp_month: 12, exp_year: 2030 });
    expect(parseExpiry('1230')).toEqual({ exp_month: 12, exp_year: 2030 });
    expect(parseExpiry('12 / 2031')).toEqual({ exp_month: 12, exp_year: 2031 });
    expect(parseExpiry('12')).toBeNull();
  });

  it('says what is wrong in words', () => {
    const now = new Date(2026, 4, 15);
    expect(cardNumberProblem('4242 4242 4242 4242')).toBeNull();
    expect(cardNumberProblem('4000 0000 0000 0002')).toBeNull();
    expect(cardNumberProblem('')).toBe('Please enter the card number');
    expect(cardNumberProblem('4242 4242')).toBe('The card number is too short: it has 12 to 19 digits');
    expect(cardNumberProblem('4242 4242 4242 4241')).toBe('This card number is not right: please check it for a typo');
    expect(expiryProblem('12/30', now)).toBeNull();
    expect(expiryProblem('05/26', now)).toBeNull();
    expect(expiryProblem('04/26', now)).toBe('This card has expired');
    expect(expiryProblem('13/30', now)).toBe('The month must be between 01 and 12');
    expect(expiryProblem('12', now)).toBe('Enter the expiry as month and year, for example 12/30');
    expect(expiryProblem('', now)).toBe('Please enter the expiry date');
    expect(cvcProblem('123')).toBeNull();
    expect(cvcProblem('12')).toBe('The CVC is the 3 or 4 digits on the back of the card');
  });
});
