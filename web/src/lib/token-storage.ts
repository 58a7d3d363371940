import { env } from '@/config/env';

/** Why the token was last dropped, for the browser's other tabs. */
const WHY_KEY = 'TV_Shop_Signed_Out';
/** Why a token is dropped: its holder signed out, the server no longer took it, or its account was deleted. */
export type SignedOutWhy = 'signed-out' | 'ended' | 'account-gone';
const REASONS: readonly string[] = ['signed-out', 'ended', 'account-gone'] satisfies SignedOutWhy[];

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
  /**
   * Drops the token, saying why to the browser's other tabs, which follow it (`endedWhy`): the
   * holder signed out (`signed-out`), or the server no longer took it (`ended`), its account
   * being deleted (`account-gone`): logging in again cannot help then, and every tab says so.
   */
  clear(why: SignedOutWhy = 'signed-out'): void {
    try {
      localStorage.setItem(WHY_KEY, why);
    } catch {
      // Private windows may refuse storage; the other tabs then say the plainer of the two.
    }
    localStorage.removeItem(env.tokenStorageKey);
  },
  /** Why the token was last dropped (see `clear`). */
  endedWhy(): SignedOutWhy {
    try {
      const why = localStorage.getItem(WHY_KEY) ?? '';
      return REASONS.includes(why) ? (why as SignedOutWhy) : 'signed-out';
    } catch {
      return 'signed-out';
    }
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
