import { describe, expect, it, vi } from 'vitest';
import { apiRequest, onSessionEnded } from '@/lib/api-client';
import { env } from '@/config/env';
import { apiPath, fakePageAndServer, json, jwt } from '@/testing/fake-server';
import { endOtherSessions } from './end-sessions';

// The page while it signs out everywhere else (ADR 0062): the server refuses the old token a
// moment before the answer with the new one arrives; that must not sign this tab out.

const OLD = jwt('nila@x.test', 1);
const NEW = jwt('nila@x.test', 2);
const { stored, answers } = fakePageAndServer(OLD);

describe('signing out everywhere else in the page', () => {
  it('when the old token is refused while the answer is on its way, then nothing signs out and the new token is stored', async () => {
    let release: (r: Response) => void = () => undefined;
    let method = '';
    answers.set(apiPath('/account/sessions'), (init) => {
      method = init.method ?? '';
      return new Promise<Response>((r) => (release = r));
    });
    answers.set(apiPath('/users'), () => Promise.resolve(json(401, { title: 'x', status: 401 })));
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    const ending = endOtherSessions();
    const check = apiRequest('/users').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 10));
    release(json(200, { acknowledged: true, position: 5, token: NEW }));
    expect(await ending).toMatchObject({ token: NEW });
    await check;
    expect(method).toBe('DELETE');
    expect(ended).not.toHaveBeenCalled();
    expect(stored.get(env.tokenStorageKey)).toBe(NEW);
    off();
  });

  it('when the call itself is refused with 401 (this session had already ended), then the session ends at once', async () => {
    answers.set(apiPath('/account/sessions'), () => Promise.resolve(json(401, { title: 'x', status: 401 })));
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    await expect(endOtherSessions()).rejects.toMatchObject({ status: 401 });
    expect(ended).toHaveBeenCalledWith(OLD);
    off();
  });
});
