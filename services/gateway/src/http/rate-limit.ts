import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit as expressRateLimit } from 'express-rate-limit';
import { AppError } from '@tv-shop/platform';

export interface LimitOptions {
  /** Shown in the logs' and the store's keys: which limit this is. */
  name: string;
  windowMs: number;
  limit: number;
  /** Whose quota a request spends; null lets the request through uncounted (no key to count by). */
  key: (req: Request) => string | null;
  /** Count only the requests that fail (a wrong password), not the ones that succeed. */
  failuresOnly?: boolean;
  /** With `failuresOnly`: which answers count as failures (default: any 4xx or 5xx). */
  failedWhen?: (status: number) => boolean;
  /** The problem's detail and field when the limit is reached. */
  detail: string;
  field: string;
}

/** The client's address, with an IPv6 client's /56 as one address (it has all of them). */
export const clientKey = (req: Request): string => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');

/** The email a request names in its body, as an account key. */
export const emailKey = (req: Request): string | null => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase().slice(0, 254) : null;
};

/**
 * A fixed-window limit (`express-rate-limit`, in this process's memory) answering 429
 * problem+json with `Retry-After`. Behind several gateways each counts its own (ADR 0020).
 */
export function rateLimit(opts: LimitOptions): RequestHandler {
  return expressRateLimit({
    windowMs: opts.windowMs,
    limit: opts.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    skipSuccessfulRequests: opts.failuresOnly ?? false,
    ...(opts.failedWhen ? { requestWasSuccessful: (_req: Request, res: { statusCode: number }) => !opts.failedWhen!(res.statusCode) } : {}),
    skip: (req) => opts.key(req) === null,
    keyGenerator: (req) => `${opts.name}:${opts.key(req)}`,
    // The wait is said in the words too (Retry-After says it to programs): a person locked out
    // of their sign-in wants to know for how long.
    handler: (req, _res, next) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const minutes = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 60_000)) : null;
      const when =
        minutes === null
          ? 'try again later'
          : minutes >= 90
            ? `try again in ${Math.round(minutes / 60)} hours`
            : `try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
      next(new AppError('too_many_requests', `${opts.detail}; ${when}`, { field: opts.field }));
    },
    // The keys are ours (an address through ipKeyGenerator, or an email), not express-rate-limit's default.
    validate: { keyGeneratorIpFallback: false },
  });
}
