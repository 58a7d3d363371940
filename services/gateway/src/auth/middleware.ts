import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { SESSION_REFUSED, type Role, type User } from '@tv-shop/contracts';
import { forbidden, unauthorized, type AppError } from '@tv-shop/platform';
import type { Credentials } from '@tv-shop/identity';
import type { ReadModels } from '../read-models';
import type { TokenClaims, Tokens } from './tokens';

declare module 'express-serve-static-core' {
  interface Request {
    user?: User;
    /** The accepted token's password stamp (ADR 0060): a refreshed token carries it on. */
    tokenStamp?: string;
    /** The accepted token's sign-in session (ADR 0060), carried on by a refresh. */
    tokenSessionId?: string | null;
    /** Why the request's token was not accepted; it only matters to a call that needs a user. */
    authFailure?: AppError;
  }
}

/** A signed-in session's account: the user, the stamp its tokens must carry (ADR 0060), and its sessions signed out (ADR 0066). */
export interface SessionAccount {
  user: User;
  stamp: string;
  signedOut: ReadonlySet<string>;
}

/** What an account's credentials let in: the stamp its tokens must carry and its sessions signed out; the credentials go no further. */
export const sessionCheck = (tokens: Tokens, credentials: Credentials): Omit<SessionAccount, 'user'> => ({
  stamp: tokens.stampOf(credentials.passwordHash, credentials.sessionsEnded),
  signedOut: new Set(credentials.signedOut),
});

/** Reads a session's account from identity's read model. */
export const sessionAccounts =
  (reads: Pick<ReadModels, 'identity'>, tokens: Tokens) =>
  async (id: string): Promise<SessionAccount | null> => {
    const account = await reads.identity.sessionAccount(id);
    return account && { user: account.user, ...sessionCheck(tokens, account) };
  };

export function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1] ?? null;
}

/**
 * Resolves the token to the account as it is now: a deleted account's token stops working at
 * once, so does one issued before the account's password changed (ADR 0060), and a role is read
 * from the account, not trusted from the token.
 *
 * Authentication is optional here; authorisation decides. A missing, empty, `null`, malformed,
 * expired or foreign token, or one whose account is gone, makes the request a visitor's, with
 * the reason kept: public calls answer as to any visitor (the spec's client sends
 * `bearer null` when nobody is signed in), and every call that needs a user (`signedIn`,
 * `withRole`, `selfOrAdmin`) answers 401 with that reason.
 */
/** The account behind a token; `fresh` asks past any cache (a password may have just changed). */
export type AccountLookup = (id: string, fresh?: boolean) => Promise<SessionAccount | null>;

/**
 * The account a verified token opens, as the HTTP API and the socket handshake both judge it:
 * `gone` for a deleted account, `stale` for a token from before its password changed (ADR 0060),
 * `signed-out` for a token of a session its holder signed out of (ADR 0066). A token newer than
 * what is kept (the password changed a moment ago) is judged on the database's word.
 */
export async function accountOfToken(
  account: AccountLookup,
  claims: Readonly<TokenClaims>,
): Promise<SessionAccount | 'gone' | 'stale' | 'signed-out'> {
  let found = await account(claims.sub);
  if (found && found.stamp !== claims.stamp) found = await account(claims.sub, true);
  if (!found) return 'gone';
  if (found.stamp !== claims.stamp) return 'stale';
  return claims.sessionId !== null && found.signedOut.has(claims.sessionId) ? 'signed-out' : found;
}

/** Whether a socket opened with the session `sessionId` is of a session the account signed out of (ADR 0066). */
export const signedOutOf = (account: Pick<SessionAccount, 'signedOut'>, sessionId: string | null | undefined): boolean =>
  sessionId != null && account.signedOut.has(sessionId);

export function authenticate(tokens: Tokens, account: AccountLookup): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = bearer(req.headers.authorization);
    if (!token) return next();
    const claims = tokens.verify(token);
    if (!claims) {
      req.authFailure = unauthorized(SESSION_REFUSED.invalid);
      return next();
    }
    const found = await accountOfToken(account, claims);
    if (found === 'gone') req.authFailure = unauthorized(SESSION_REFUSED.accountGone);
    else if (found === 'stale') req.authFailure = unauthorized(SESSION_REFUSED.ended);
    else if (found === 'signed-out') req.authFailure = unauthorized(SESSION_REFUSED.signedOut);
    else {
      req.user = found.user;
      req.tokenStamp = found.stamp;
      req.tokenSessionId = claims.sessionId;
    }
    next();
  };
}

export const signedIn = (req: Request): User => {
  if (!req.user) throw req.authFailure ?? unauthorized();
  return req.user;
};

export const withRole = (req: Request, ...roles: Role[]): User => {
  const user = signedIn(req);
  if (!roles.includes(user.role)) throw forbidden(`Only ${roles.join(' or ')} accounts may do this`);
  return user;
};

/** The caller themself, or the admin. */
export const selfOrAdmin = (req: Request, email: string): User => {
  const user = signedIn(req);
  if (user.role !== 'Admin' && user.email !== email.trim().toLowerCase()) throw forbidden('You may only see your own account');
  return user;
};
