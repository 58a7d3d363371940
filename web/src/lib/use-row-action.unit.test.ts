import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { failureOutcome } from './use-row-action';

const answer = (status: number, type = 'about:blank') => new ApiError({ type, title: 'x', status });

describe('failureOutcome', () => {
  it('when the shop refused or broke on the request, then the row may be stale and is read again', () => {
    for (const status of [400, 404, 409, 422, 429, 500]) expect(failureOutcome(answer(status))).toBe('refused');
  });

  it('when the shop could not be reached or could not work it now, then a read would fail as well', () => {
    for (const status of [0, 502, 503, 504]) expect(failureOutcome(answer(status))).toBe('failed');
  });

  it('when the answer was cut short after its status line, then the shop was reached and may have done it', () => {
    expect(failureOutcome(answer(0, 'urn:tv-shop:answer-cut-short'))).toBe('refused');
  });

  it('when the session is over, then nothing is read again', () => {
    expect(failureOutcome(answer(401))).toBe('failed');
  });

  it('when something other than an answer failed after the write (the page updating its rows), then the row is read again', () => {
    expect(failureOutcome(new TypeError('x is undefined'))).toBe('refused');
  });
});
