import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, onSessionEnded } from '@/lib/api-client';
import { env } from '@/config/env';
import { apiPath, fakePageAndServer, json, jwt } from '@/testing/fake-server';
import { changePassword } from './change-password';

// The page while its password changes (ADR 0060): the server may refuse the old token a moment
// before the answer with the new one arrives; that must not sign this tab out, and a refusal of
// the change itself, or a session that really ended, still must.

const OLD = jwt('nila@x.test', 1);
const NEW = jwt('nila@x.test', 2);
const { stored, answers } = fakePageAndServer(OLD);

const body = { current_password: 'secret-pass', new_password: 'a-better-passphrase' };

describe('changing the password in the page', () => {
  it('when the old token is refused while the change is on its way, then nothing signs out and the new token is stored', async () => {
    let release: (r: Response) => void = () => undefined;
    answers.set(apiPath('/account/password'), () => new Promise<Response>((r) => (release = r)));
    answers.set(apiPath('/users'), () => Promise.resolve(json(401, { title: 'x', status: 401 })));
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    const change = changePassword(body);
    const check = apiRequest('/users').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 10));
    release(json(200, { acknowledged: true, position: 5, token: NEW }));
    expect(await change).toMatchObject({ token: NEW });
    await check;
    expect(ended).not.toHaveBeenCalled();
    expect(stored.get(env.tokenStorageKey)).toBe(NEW);
    off();
  });

  it('when the change is stored but the server had not caught up (202, no token), then no token is stored and the old one stays for the caller to end', async () => {
    stored.set(env.tokenStorageKey, OLD);
    answers.set(apiPath('/account/password'), () =>
      Promise.resolve(json(202, { acknowledged: true, position: 7, modifiedCount: 1, token: null })),
    );
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    expect(await changePassword(body)).toMatchObject({ acknowledged: true, token: null });
    expect(stored.get(env.tokenStorageKey)).toBe(OLD);
    expect(ended).not.toHaveBeenCalled();
    off();
  });

  it('when the change itself is refused with 401 (the session had ended), then it ends at once, and a waiting call ends it too', async () => {
    answers.set(apiPath('/account/password'), () => Promise.resolve(json(401, { title: 'x', status: 401 })));
    answers.set(apiPath('/users'), () => Promise.resolve(json(401, { title: 'x', status: 401 })));
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    const [change, check] = await Promise.all([
      changePassword(body).catch((e: unknown) => e),
      apiRequest('/users').catch((e: unknown) => e),
    ]);
    // The server's refusals, not a crash on the way.
    expect(change).toBeInstanceOf(ApiError);
    expect(change).toMatchObject({ status: 401 });
    expect(check).toBeInstanceOf(ApiError);
    expect(check).toMatchObject({ status: 401 });
    expect(ended).toHaveBeenCalled();
    off();
  });

  describe('a 401 while another tab of this browser may be changing the password', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());
    /** A call refused with 401, and what ends the session. */
    const refusedCall = () => {
      answers.set(apiPath('/users'), () =>
        Promise.resolve(json(401, { title: 'Unauthorized', status: 401, detail: 'This account no longer exists' })),
      );
      const ended = vi.fn();
      const off = onSessionEnded(ended);
      return { ended, off, check: apiRequest('/users').catch((e: unknown) => e) };
    };

    it('when the other tab stores its new token, then this tab’s 401 waited for it, and nothing signs out', async () => {
      const { ended, off, check } = refusedCall();
      await vi.advanceTimersByTimeAsync(700);
      expect(ended).not.toHaveBeenCalled();
      stored.set(env.tokenStorageKey, NEW);
      await vi.advanceTimersByTimeAsync(200);
      const refused = await check;
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 401 });
      expect(ended).not.toHaveBeenCalled();
      off();
    });

    it('when another tab signs out or signs another account in meanwhile, then this tab’s session ends at once, naming the token refused', async () => {
      for (const after of [null, jwt('someone-else@x.test', 3)]) {
        stored.set(env.tokenStorageKey, OLD);
        const { ended, off, check } = refusedCall();
        await vi.advanceTimersByTimeAsync(300);
        if (after === null) stored.delete(env.tokenStorageKey);
        else stored.set(env.tokenStorageKey, after);
        await vi.advanceTimersByTimeAsync(200);
        await check;
        // With the server's reason, for the login page to say.
        expect(ended).toHaveBeenCalledWith(OLD, 'This account no longer exists');
        off();
      }
    });

    it('when no tab stores a new token, then the 401 ends the session once the grace has passed', async () => {
      const { ended, off, check } = refusedCall();
      await vi.advanceTimersByTimeAsync(2000);
      expect(ended).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1000);
      await check;
      expect(ended).toHaveBeenCalledTimes(1);
      // With the server's reason, for the login page to say.
      expect(ended).toHaveBeenCalledWith(OLD, 'This account no longer exists');
      off();
    });
  });

  it('when the change is refused and nothing else is asked meanwhile, then the refusal is the form’s alone (no unhandled rejection)', async () => {
    answers.set(apiPath('/account/password'), () => Promise.resolve(json(403, { title: 'x', status: 403, field: 'current_password' })));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const refused = await changePassword(body).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 403, problem: { field: 'current_password' } });
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('when the change is refused (wrong current password), then a 401 meanwhile still ends the session', async () => {
    answers.set(apiPath('/account/password'), () => Promise.resolve(json(403, { title: 'x', status: 403, field: 'current_password' })));
    answers.set(apiPath('/users'), () => Promise.resolve(json(401, { title: 'x', status: 401 })));
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    await Promise.all([changePassword(body).catch(() => undefined), apiRequest('/users').catch(() => undefined)]);
    expect(ended).toHaveBeenCalledTimes(1);
    expect(stored.get(env.tokenStorageKey)).toBe(OLD);
    off();
  });
});
