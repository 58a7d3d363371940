import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, logFailure } from './api-client';

const answer = (status: number) => new ApiError({ type: 'about:blank', title: 'x', status });

describe('what the page logs of a failed call', () => {
  afterEach(() => vi.restoreAllMocks());

  it("leaves out the server's answers about the request itself (4xx), which the page shows in words, and logs the rest", () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const status of [400, 401, 403, 404, 409, 422, 429]) logFailure(answer(status));
    expect(logged).not.toHaveBeenCalled();
    const outage = answer(503);
    const broken = new TypeError('Failed to fetch');
    logFailure(outage);
    logFailure(broken);
    expect(logged.mock.calls).toEqual([[outage], [broken]]);
  });
});
