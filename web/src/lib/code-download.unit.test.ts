import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryWhenBack } from './code-download';

describe('retryWhenBack', () => {
  let browser: EventTarget;
  const backOnline = () => browser.dispatchEvent(new Event('online'));
  beforeEach(() => {
    browser = new EventTarget();
    vi.stubGlobal('window', browser);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('when code failed and the browser is back online, then it is tried again, once per return', () => {
    const retry = vi.fn();
    const back = retryWhenBack(() => true, retry);
    backOnline();
    expect(retry).toHaveBeenCalledTimes(1);
    back.stop();
    backOnline();
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('when nothing failed, then coming back online tries nothing', () => {
    const retry = vi.fn();
    retryWhenBack(() => false, retry);
    backOnline();
    expect(retry).not.toHaveBeenCalled();
  });

  it('when the failure is told just after the browser came back (its server check was under way), then it is tried once more at once', () => {
    const retry = vi.fn();
    const back = retryWhenBack(() => false, retry);
    backOnline();
    vi.advanceTimersByTime(4_000);
    back.justFailed();
    expect(retry).toHaveBeenCalledTimes(1);
    // Only once: a second failure waits for the next return or a Retry.
    back.justFailed();
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('when the failure comes long after the browser came back, then it waits for the next return or a Retry', () => {
    const retry = vi.fn();
    const back = retryWhenBack(() => false, retry);
    backOnline();
    vi.advanceTimersByTime(10_000);
    back.justFailed();
    expect(retry).not.toHaveBeenCalled();
  });
});
