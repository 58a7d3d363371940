import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError, createLogger, databaseUnavailable, describeError, isDatabaseUnavailable, isTransientRollback } from '@tv-shop/platform';

const log = createLogger('gateway');

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  402: 'Payment required',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable request',
  429: 'Too many requests',
  500: 'Internal error',
  501: 'Not configured',
  503: 'Service unavailable',
};

/** The one place errors become answers: application/problem+json with the field at fault. */
export const problemHandler: ErrorRequestHandler = (thrown: unknown, req, res, _next) => {
  const err = (thrown ?? {}) as { type?: string; code?: string; status?: unknown };
  let e: AppError;
  if (thrown instanceof AppError) e = thrown;
  else if (isDatabaseUnavailable(thrown)) {
    // The database went away under this request (terminated, refused, timed out): a 503 to retry, not a 500.
    log.warn('database unavailable during a request', { path: req.path, error: describeError(thrown) });
    e = databaseUnavailable(thrown);
  } else if (isTransientRollback(thrown)) {
    // PostgreSQL rolled the request's transaction back because of another (a deadlock, say): nothing
    // was written and a retry can pass, so a 503; but two writers locking in different orders is a bug.
    log.error('a transaction was rolled back because of another (deadlock, serialization or lock timeout)', {
      path: req.path,
      error: describeError(thrown),
    });
    e = databaseUnavailable(thrown);
  } else if (err?.type === 'entity.parse.failed') e = new AppError('validation', 'The body is not valid JSON', { field: 'body' });
  else if (err?.type === 'entity.too.large') e = new AppError('payload_too_large', 'The body is too large', { field: 'body' });
  else if (err?.type === 'charset.unsupported' || err?.type === 'encoding.unsupported')
    e = new AppError('unsupported_media_type', 'Unsupported body encoding', { field: 'body' });
  else if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
    // body-parser and the router's own 4xx (a path that cannot be decoded, say): keep the status.
    e = new AppError(
      err.status === 404 ? 'not_found' : 'validation',
      err.status === 400 ? 'The request cannot be read' : 'Request refused',
      {
        field: req.path.includes('%') ? 'path' : 'body',
      },
    );
  } else {
    log.error('unhandled error', { path: req.path, error: thrown instanceof Error ? thrown.stack : String(thrown) });
    res.status(500).type('application/problem+json').json({ type: 'about:blank', title: 'Internal error', status: 500 });
    return;
  }
  // A client (or a proxy) may try again after this many seconds: what the refusal says (a
  // listing limit, across any command transport), else what the edge's own limiter set, else 2 s for a 503.
  if (e.retryAfter !== undefined) res.set('Retry-After', String(e.retryAfter));
  else if (e.status === 503 && !res.get('Retry-After')) res.set('Retry-After', '2');
  res
    .status(e.status)
    .type('application/problem+json')
    .json({
      // Extension members first: none of them can take the place of a member the problem defines.
      ...omitProblemMembers(e.extensions),
      type: `https://tvshop.local/problems/${e.kind.replace(/_/g, '-')}`,
      title: TITLES[e.status] ?? 'Error',
      status: e.status,
      detail: e.message,
      ...(e.field ? { field: e.field } : {}),
      ...(e.errors ? { errors: e.errors } : {}),
    });
};

/** RFC 9457's own members and ours (`field`, `errors`): an extension never sets one of them. */
const PROBLEM_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'instance', 'field', 'errors']);
const omitProblemMembers = (extensions: Record<string, unknown> | undefined) =>
  extensions && Object.fromEntries(Object.entries(extensions).filter(([key]) => !PROBLEM_MEMBERS.has(key)));

export const notFoundHandler: RequestHandler = (req, _res, next) =>
  next(new AppError('not_found', `No route ${req.method} ${req.originalUrl}`));

/**
 * Requests Node refuses before Express sees them (headers or URL past its 16 KB limit, a line
 * that is not HTTP) are answered in problem+json too, then the connection is closed. As Node's
 * own handler does, nothing is written into a response already under way: that connection is
 * only closed.
 */
export function answerClientError(err: Error & { code?: string }, duplex: Duplex): void {
  const socket = duplex as Socket & { _httpMessage?: { headersSent?: boolean } | null };
  if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, title, detail] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request header fields too large', 'The request line and headers are larger than 16 KB']
      : err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? [413, 'Payload too large', 'The chunk extensions are too large']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request timeout', 'The request took too long to arrive']
          : [400, 'Bad request', 'The request is not valid HTTP'];
  const body = JSON.stringify({ type: 'about:blank', title, status, detail });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // A peer that never closes its side does not keep the connection open.
  socket.destroySoon();
}
