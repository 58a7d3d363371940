import type { RequestHandler } from 'express';
import { AppError } from '@tv-shop/platform';

/**
 * Graceful overload: at most `limit` writes (anything but GET, HEAD and OPTIONS) are worked on at
 * once in this process; one more is refused at once with 503 and `Retry-After` instead of joining
 * a queue in which every write would wait out its timeout. Offered more than the shop can take,
 * it keeps answering what it can take at full speed, and says so to the rest.
 */
export function shedWrites(limit: number, retryAfterS = 1): RequestHandler {
  let inFlight = 0;
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || limit <= 0) return next();
    if (inFlight >= limit)
      return next(new AppError('unavailable', 'The shop is busy right now; try again in a moment', { retryAfter: retryAfterS }));
    inFlight += 1;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      inFlight -= 1;
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}
