import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Role, User } from '@tv-shop/contracts';
import { forbidden, unauthorized } from '@tv-shop/platform';
import type { ReadModels } from '../read-models';
import type { Tokens } from './tokens';

declare module 'express-serve-static-core' {
  interface Request {
    user?: User;
  }
}

export function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1] ?? null;
}

/**
 * Resolves the token to the account as it is now: a deleted account's token stops working at
 * once, and a role is read from the account, not trusted from the token.
 */
export function authenticate(tokens: Tokens, reads: ReadModels): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = bearer(req.headers.authorization);
    if (!token) return next();
    const claims = tokens.verify(token);
    if (!claims) return next(unauthorized('The session token is invalid or expired'));
    const user = await reads.userById(claims.sub);
    if (!user) return next(unauthorized('This account no longer exists'));
    req.user = user;
    next();
  };
}

export const signedIn = (req: Request): User => {
  if (!req.user) throw unauthorized();
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
