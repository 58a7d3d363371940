import { afterEach, beforeEach, vi } from 'vitest';
import { env } from '@/config/env';

/** A token as the server makes them, as far as the page reads one: its email and expiry. */
export const jwt = (email: string, n: number): string => {
  const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256' })}.${part({ email, n, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
};

/** A JSON answer, as problem+json (what the page reads of an error). */
export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/problem+json' } });

/** The path a call of the page's API client reaches. */
export const apiPath = (p: string): string => new URL(`${env.apiBase}${p}`, 'http://shop.test').pathname;

/**
 * The page's storage and the server, faked for each test: `stored` is localStorage (holding
 * `token` under the page's key when each test starts), `answers` the server's answer to a path
 * (404 for any other). Call once at the top of a test file.
 */
export function fakePageAndServer(token: string) {
  const stored = new Map<string, string>();
  const answers = new Map<string, (init: RequestInit) => Promise<Response>>();
  beforeEach(() => {
    stored.clear();
    answers.clear();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, v),
      removeItem: (k: string) => void stored.delete(k),
    });
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
      const path = new URL(url, 'http://shop.test').pathname;
      return (answers.get(path) ?? (() => Promise.resolve(json(404, { title: 'x', status: 404 }))))(init);
    });
    stored.set(env.tokenStorageKey, token);
  });
  afterEach(() => vi.unstubAllGlobals());
  return { stored, answers };
}
