import type { Request, RequestHandler } from 'express';
import { AppError } from '@tv-shop/platform';

/**
 * A fixed-window limit per key (the caller's account, else their address), in memory: enough to
 * stop one visitor filling the disk with uploads. Behind several gateways each counts its own.
 */
export function rateLimit(opts: { windowMs: number; max: number; key?: (req: Request) => string }): RequestHandler {
  const windows = new Map<string, { start: number; count: number }>();
  const key = opts.key ?? ((req: Request) => req.user?._id ?? req.ip ?? 'unknown');
  return (req, res, next) => {
    const now = Date.now();
    if (windows.size > 10_000) for (const [k, w] of windows) if (now - w.start >= opts.windowMs) windows.delete(k);
    const k = key(req);
    const w = windows.get(k);
    if (!w || now - w.start >= opts.windowMs) {
      windows.set(k, { start: now, count: 1 });
      return next();
    }
    if (++w.count <= opts.max) return next();
    res.set('Retry-After', String(Math.ceil((w.start + opts.windowMs - now) / 1000)));
    next(new AppError('too_many_requests', 'Too many uploads; try again later', { field: 'image' }));
  };
}
