import { env } from '@/config/env';

/** The session token lives in localStorage under the spec's key (TV_Shop_Token). */
export const tokenStorage = {
  /** The localStorage key (another tab's change to it arrives as a `storage` event). */
  key: env.tokenStorageKey,
  get(): string | null {
    try {
      return localStorage.getItem(env.tokenStorageKey);
    } catch {
      return null;
    }
  },
  set(token: string): void {
    localStorage.setItem(env.tokenStorageKey, token);
  },
  clear(): void {
    localStorage.removeItem(env.tokenStorageKey);
  },
};

/** Whether `token` is one of the account with `email` (by its email claim; an expired one is of none). */
export const isTokenOf = (token: string, email: string): boolean => emailFromToken(token)?.toLowerCase() === email.toLowerCase();

/** The email claim of our own JWT, so a reload can find the profile again. */
export function emailFromToken(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { email?: unknown; exp?: unknown };
    if (typeof claims.exp === 'number' && claims.exp * 1000 < Date.now()) return null;
    return typeof claims.email === 'string' ? claims.email : null;
  } catch {
    return null;
  }
}
