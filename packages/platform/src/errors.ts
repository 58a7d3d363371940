/**
 * Typed errors. Domain code throws these; one HTTP middleware turns them into problem+json,
 * so handlers never try/catch. `kind` survives any command transport (it is plain data).
 */
export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'illegal_state'
  | 'concurrency'
  | 'payload_too_large'
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
  conflict: 409,
  illegal_state: 409,
  concurrency: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  not_configured: 501,
  unavailable: 503,
  too_many_requests: 429,
};

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly field: string | undefined;
  readonly errors: FieldError[] | undefined;
  constructor(kind: ErrorKind, message: string, opts: { field?: string; errors?: FieldError[] } = {}) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.field = opts.field ?? opts.errors?.[0]?.field;
    this.errors = opts.errors;
  }
  get status(): number {
    return STATUS[this.kind];
  }
  toJSON() {
    return { kind: this.kind, message: this.message, field: this.field, errors: this.errors };
  }
  static fromJSON(j: { kind: ErrorKind; message: string; field?: string; errors?: FieldError[] }): AppError {
    return new AppError(j.kind, j.message, { ...(j.field ? { field: j.field } : {}), ...(j.errors ? { errors: j.errors } : {}) });
  }
}

export const validation = (field: string, message: string) =>
  new AppError('validation', `${field} ${message}`, { field, errors: [{ field, message }] });
export const notFound = (what: string, field?: string) => new AppError('not_found', `${what} not found`, field ? { field } : {});
export const forbidden = (message: string) => new AppError('forbidden', message);
export const unauthorized = (message = 'Sign in first') => new AppError('unauthorized', message);
export const illegalState = (message: string, field?: string) => new AppError('illegal_state', message, field ? { field } : {});
export const conflict = (message: string, field?: string) => new AppError('conflict', message, field ? { field } : {});

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

/** An event id that is already stored: the command that produced it was already done. */
export class DuplicateEventError extends AppError {
  constructor(readonly eventId: string) {
    super('conflict', `Event ${eventId} is already stored`);
    this.name = 'DuplicateEventError';
  }
}
