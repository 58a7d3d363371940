/**
 * Typed errors. Domain code throws these; one HTTP middleware turns them into problem+json,
 * so handlers never try/catch. `kind` survives any command transport (it is plain data).
 */
export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'gone'
  | 'conflict'
  | 'illegal_state'
  | 'concurrency'
  | 'payload_too_large'
  | 'unprocessable'
  | 'unsupported_media_type'
  | 'not_configured'
  | 'payment_required'
  | 'unavailable'
  | 'too_many_requests';

const STATUS: Record<ErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  gone: 410,
  conflict: 409,
  illegal_state: 409,
  concurrency: 409,
  payload_too_large: 413,
  unprocessable: 422,
  unsupported_media_type: 415,
  not_configured: 501,
  unavailable: 503,
  too_many_requests: 429,
};

export interface FieldError {
  field: string;
  message: string;
}

export interface AppErrorOptions {
  field?: string;
  errors?: FieldError[];
  /** Seconds after which the same request may succeed (a 429's or 503's `Retry-After`). */
  retryAfter?: number;
  /**
   * More members of the problem+json answer (RFC 9457's extension members), for the gateway's
   * own answers: a 410's `removed`. Not carried by the command transports.
   */
  extensions?: Record<string, unknown>;
}

/** An AppError as the command transports carry it (HTTP, Kafka): plain JSON. */
export interface AppErrorJSON {
  kind: ErrorKind;
  message: string;
  field?: string | undefined;
  errors?: FieldError[] | undefined;
  retryAfter?: number | undefined;
}

/** Whole seconds, at least 1: a Retry-After header takes nothing else. */
const wholeSeconds = (s: unknown): number | undefined =>
  typeof s === 'number' && Number.isFinite(s) && s > 0 ? Math.max(1, Math.ceil(s)) : undefined;

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly field: string | undefined;
  readonly errors: FieldError[] | undefined;
  readonly retryAfter: number | undefined;
  readonly extensions: Record<string, unknown> | undefined;
  constructor(kind: ErrorKind, message: string, opts: AppErrorOptions = {}) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.field = opts.field ?? opts.errors?.[0]?.field;
    this.errors = opts.errors;
    this.retryAfter = wholeSeconds(opts.retryAfter);
    this.extensions = opts.extensions;
  }
  get status(): number {
    return STATUS[this.kind];
  }
  toJSON(): AppErrorJSON {
    return { kind: this.kind, message: this.message, field: this.field, errors: this.errors, retryAfter: this.retryAfter };
  }
  static fromJSON(j: AppErrorJSON): AppError {
    const retryAfter = wholeSeconds(j.retryAfter);
    return new AppError(j.kind, j.message, {
      ...(j.field ? { field: j.field } : {}),
      ...(j.errors ? { errors: j.errors } : {}),
      ...(retryAfter ? { retryAfter } : {}),
    });
  }
}

export const validation = (field: string, message: string) =>
  new AppError('validation', `${field} ${message}`, { field, errors: [{ field, message }] });
export const notFound = (what: string, field?: string) => new AppError('not_found', `${what} not found`, field ? { field } : {});
export const forbidden = (message: string) => new AppError('forbidden', message);
export const unauthorized = (message = 'Sign in first') => new AppError('unauthorized', message);
export const illegalState = (message: string, field?: string) => new AppError('illegal_state', message, field ? { field } : {});
export const conflict = (message: string, field?: string) => new AppError('conflict', message, field ? { field } : {});
/** A limit reached (429): `message` says which and when; a client may try again after `retryAfter` seconds. */
export const tooManyRequests = (message: string, opts: { field: string; retryAfter: number }) =>
  new AppError('too_many_requests', message, opts);

/** The stream moved since it was read: reload and decide again. */
export class ConcurrencyError extends AppError {
  constructor(
    readonly streamId: string,
    readonly expected: string,
    readonly actual: number,
  ) {
    super('concurrency', `Stream ${streamId} is at version ${actual}, expected ${expected}`);
    this.name = 'ConcurrencyError';
  }
}

/**
 * Whether an error is a refusal: the domain's answer to a command (a 4xx), final for that command.
 * A stream still busy with other writes past the retries (`concurrency`) and a limit reached
 * (`too_many_requests`) are 4xx too but decide nothing: the same command may succeed later.
 * What reacts to events (policies, Stripe's webhook) goes on after a refusal and tries anything
 * else again, so a limit that does not pass by itself must not apply to it (the system actor's
 * commands have none: ADR 0035).
 */
export function isRefusal(err: unknown): err is AppError {
  return err instanceof AppError && err.status < 500 && err.kind !== 'concurrency' && err.kind !== 'too_many_requests';
}

/** An event id that is already stored: the command that produced it was already done. */
export class DuplicateEventError extends AppError {
  constructor(readonly eventId: string) {
    super('conflict', `Event ${eventId} is already stored`);
    this.name = 'DuplicateEventError';
  }
}

/**
 * PostgreSQL / network failures that say "the database cannot be reached right now", not "this
 * request is wrong": admin shutdown or termination (57P01-57P03), connection exceptions (08xxx),
 * too many connections (53300), a database closed to connections, refused or reset sockets,
 * connections ended under a query, and connect timeouts. Retrying later can succeed.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e instanceof AppError) return e.kind === 'unavailable';
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^(57P0[123]|08...|53300)$/.test(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND'].includes(code))
      return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (
      /Connection terminated|connection error and is not queryable|Client was closed|not currently accepting connections|the database system is (starting up|shutting down|in recovery mode)|timeout exceeded when trying to connect|Connection terminated due to connection timeout|terminating connection|Query read timeout/i.test(
        message,
      )
    )
      return true;
    // AggregateError (several addresses refused) and wrapped causes.
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.length > 0 && inner.every((x) => isDatabaseUnavailable(x))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * A transaction PostgreSQL rolled back only because of others running beside it: a deadlock's
 * victim (40P01), a serialization failure (40001), a lock not granted within `lock_timeout`
 * (55P03). Nothing of it was written, and running it again can succeed. The connection is fine,
 * so this is not `isDatabaseUnavailable`; it is answered with the same 503 (ADR 0050), but a
 * deadlock means two writers took locks in different orders, so it is also logged as an error.
 */
export function isTransientRollback(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && /^(40P01|40001|55P03)$/.test(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** The 503 a caller may retry (with the same Idempotency-Key for a write). */
export function databaseUnavailable(cause?: unknown): AppError {
  const err = new AppError('unavailable', 'The database is unavailable right now; try again in a moment');
  if (cause !== undefined) (err as { cause?: unknown }).cause = cause;
  return err;
}

/** A database outage, or a transaction rolled back because of others, as the typed 503; anything else unchanged. */
export function asUnavailable(err: unknown): unknown {
  return !(err instanceof AppError) && (isDatabaseUnavailable(err) || isTransientRollback(err)) ? databaseUnavailable(err) : err;
}

/** A readable cause for logs: the message, the PostgreSQL / system code, and what it wraps. */
export function describeError(err: unknown): string {
  if (err === undefined || err === null) return 'no error was given (the failing step reported nothing)';
  if (!(err instanceof Error)) return typeof err === 'string' ? err : JSON.stringify(err);
  const code = (err as { code?: unknown }).code;
  let text = `${err.message || err.name}${typeof code === 'string' ? ` (${code})` : ''}`;
  const inner = (err as { errors?: unknown[] }).errors;
  if (!err.message && Array.isArray(inner)) text += `: ${inner.map(describeError).join('; ')}`;
  if (err.cause !== undefined && err.cause !== err) text += `; caused by ${describeError(err.cause)}`;
  return text;
}
