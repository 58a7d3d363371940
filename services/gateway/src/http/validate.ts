import type { z } from 'zod';
import { ID_PATTERN } from '@tv-shop/contracts';
import { AppError } from '@tv-shop/platform';

/** Parses input with a contracts schema; failures become a 400 naming every bad field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, where = 'body'): z.infer<S> {
  if (where === 'body' && (input === undefined || input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new AppError('validation', 'The body must be a JSON object', { field: 'body' });
  }
  const res = schema.safeParse(input);
  if (res.success) return res.data;
  const errors = res.error.issues.flatMap((i) =>
    // A parameter or member it does not take is named itself (`brand is unknown here`), one each.
    i.code === 'unrecognized_keys'
      ? i.keys.map((key) => ({ field: [...i.path, key].join('.'), message: 'is unknown here' }))
      : [{ field: i.path.join('.') || where, message: plainMessage(i) }],
  );
  const first = errors[0]!;
  throw new AppError('validation', `${first.field} ${first.message}`, { errors });
}

/** zod's names of types as a sentence says them. */
const TYPE_WORDS: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  record: 'an object',
};
const SIZE_UNITS: Record<string, [string, string]> = { string: ['character', 'characters'], array: ['item', 'items'] };

/**
 * An issue's message in the words the hand-written ones use. zod's own wording, which its
 * messages begin with ("Invalid input: expected string, received undefined", "Too big: expected
 * string to have <=80 characters", "Unrecognized key: ..."), becomes "is required", "must be a
 * number", "must be at most 80 characters", ...; a message a schema gives itself is kept as it is
 * (none of ours begins with those words).
 */
export function plainMessage(issue: z.core.$ZodIssue): string {
  const { message } = issue;
  switch (issue.code) {
    case 'invalid_type':
      if (!message.startsWith('Invalid input')) return message;
      if (message.endsWith('received undefined')) return 'is required';
      return `must be ${TYPE_WORDS[issue.expected] ?? `of type ${issue.expected}`}`;
    case 'invalid_value':
      if (!message.startsWith('Invalid option') || issue.values.length === 0) return message;
      return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'too_small':
    case 'too_big': {
      if (!/^Too (small|big):/.test(message)) return message;
      const small = issue.code === 'too_small';
      const bound = Number(small ? issue.minimum : issue.maximum);
      const unit = SIZE_UNITS[issue.origin];
      const amount = unit ? `${bound} ${bound === 1 ? unit[0] : unit[1]}` : String(bound);
      // As the web app says a length ("must be at most 80 characters"); a list has its items.
      const verb = issue.origin === 'array' ? 'have' : 'be';
      if (issue.inclusive === false) return `must ${verb} ${small ? 'more' : 'less'} than ${amount}`;
      return `must ${verb} at ${small ? 'least' : 'most'} ${amount}`;
    }
    case 'unrecognized_keys':
      if (!message.startsWith('Unrecognized key')) return message;
      return `does not take ${issue.keys.join(', ')}`;
    default:
      return message;
  }
}

/** A required query parameter, as one string. */
export function queryParam(query: Record<string, unknown>, name: string): string {
  const v = query[name];
  if (typeof v !== 'string' || v.trim() === '') throw new AppError('validation', `${name} is required`, { field: name });
  return v.trim();
}

/**
 * Route ids are UUIDs or short slugs; anything else is a 404, not a database error. `field` names
 * where the id came from when that is not the route's `:id` (a body's `bookingId`).
 */
export function idParam(value: string | null | undefined, what: string, field = 'id'): string {
  if (!value || !ID_PATTERN.test(value)) throw new AppError('not_found', `${what} not found`, { field });
  return value;
}

/** NUL and unpaired surrogates cannot be stored in PostgreSQL text; refuse them at the door. */
export function unreadableText(value: unknown, path = 'body', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') || !value.isWellFormed() ? path : null;
  if (depth > 20 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const bad =
      unreadableText(k, path, depth + 1) ??
      unreadableText(v, Array.isArray(value) ? `${path}[${k}]` : path === 'body' || path === 'query' ? k : `${path}.${k}`, depth + 1);
    if (bad) return bad;
  }
  return null;
}

/**
 * Whether a parsed JSON body nests deeper than `max` (objects and arrays), measured without
 * recursion: a body of 50,000 nested arrays must not overflow the stack of anything that walks it
 * later (the idempotency fingerprint, the text check).
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Whether a request carries a body: a length above 0, or one sent in chunks. */
export function hasBody(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}
