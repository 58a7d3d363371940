import type { Problem } from '@tv-shop/contracts';
import { describe, expect, it } from 'vitest';
import { fieldLabel, fieldSentence, outageStatus, problemText } from './problem-text';

const problem = (over: Partial<Problem>): Problem => ({ type: 'about:blank', title: 'Bad Request', status: 400, ...over });

describe('what the user is told about a failed call', () => {
  it('names a field by its label, not its key', () => {
    expect(fieldLabel('phone_number')).toBe('Phone number');
    expect(fieldLabel('orginal_price')).toBe('Original price');
    expect(fieldLabel('card.exp_month')).toBe('Expiry month');
    expect(fieldLabel('productImages.1')).toBe('Photos');
    expect(fieldLabel('meetingPlace')).toBe('Meeting place');
  });

  it('says each field the server refused as a sentence', () => {
    expect(fieldSentence('password', 'must be at least 6 characters')).toBe('Password must be at least 6 characters.');
    expect(fieldSentence('name', 'Too big: expected string to have <=80 characters')).toBe('Name must be at most 80 characters.');
    expect(fieldSentence('role', 'Invalid input: expected string, received undefined')).toBe('Role is required.');
    const refused = problem({
      detail: 'resale_price must be at least 0.01 TK',
      errors: [
        { field: 'resale_price', message: 'must be at least 0.01 TK' },
        { field: 'phone_number', message: 'must have 6 to 15 digits' },
      ],
    });
    expect(problemText(refused)).toBe('Resale price must be at least 0.01 TK. Phone number must have 6 to 15 digits.');
  });

  it('rewrites a detail that starts with its field, and keeps other words as they are', () => {
    expect(problemText(problem({ detail: 'password must be at least 6 characters', field: 'password' }))).toBe(
      'Password must be at least 6 characters.',
    );
    expect(problemText(problem({ status: 401, title: 'Unauthorized', detail: 'Wrong email or password' }))).toBe('Wrong email or password');
    expect(problemText(problem({ status: 404, title: 'Not Found', detail: 'Seller not found', field: 'id' }))).toBe('Seller not found');
    expect(problemText(problem({ status: 503, title: 'service unavailable' }))).toBe('Service unavailable');
  });

  it('tells an outage from a refusal', () => {
    expect([0, 502, 503, 504].every(outageStatus)).toBe(true);
    expect([400, 401, 404, 409, 429, 500].some(outageStatus)).toBe(false);
  });
});
