import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Role, User } from '@tv-shop/contracts';
import { forbidden, unauthorized, type AppError } from '@tv-shop/platform';
import type { Tokens } from './tokens';

declare module 'express-serve-static-core' {
  interface Request {
    user?: User;
    /** Why the request's token was not accepted; it only matters to a call that needs a user. */
    authFailure?: AppError;
  }
}

export function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1] ?? null;
}

/**
 * Resolves the token to the account as it is now: a deleted account's token stops working at
 * once, and a role is read from the account, not trusted from the token.
 *
 * Authentication is optional here; authorisation decides. A missing, empty, `null`, malformed,
 * expired or foreign token, or one whose account is gone, makes the request a visitor's, with
 * the reason kept: public calls answer as to any visitor (the spec's client sends
 * `bearer null` when nobody is signed in), and every call that needs a user (`signedIn`,
 * `withRole`, `selfOrAdmin`) answers 401 with that reason.
 */
export function authenticate(tokens: Tokens, account: (id: string) => Promise<User | null>): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = bearer(req.headers.authorization);
    if (!token) return next();
    const claims = tokens.verify(token);
    if (!claims) {
      req.authFailure = unauthorized('The session token is invalid or expired');
      return next();
    }
    const user = await account(claims.sub);
    if (!user) req.authFailure = unauthorized('This account no longer exists');
    else req.user = user;
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
