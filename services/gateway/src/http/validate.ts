import type { z } from 'zod';
import { AppError } from '@tv-shop/platform';

/** Parses input with a contracts schema; failures become a 400 naming every bad field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, where = 'body'): z.infer<S> {
  if (where === 'body' && (input === undefined || input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new AppError('validation', 'The body must be a JSON object', { field: 'body' });
  }
  const res = schema.safeParse(input);
  if (res.success) return res.data;
  const errors = res.error.issues.map((i) => ({ field: i.path.join('.') || where, message: plainMessage(i) }));
  const first = errors[0]!;
  throw new AppError('validation', `${first.field} ${first.message}`, { errors });
}

/**
 * An issue's message in the words the hand-written ones use: zod's own wording for a missing
 * field, a wrong type or a value outside a list ("Invalid input: expected string, received
 * undefined") becomes "is required", "must be a number", "must be one of ..."; a message a schema
 * gives itself is kept as it is.
 */
export function plainMessage(issue: z.core.$ZodIssue): string {
  const { message } = issue;
  if (issue.code === 'invalid_type' && message.startsWith('Invalid input')) {
    if (message.endsWith('received undefined')) return 'is required';
    const expected = String(issue.expected);
    return `must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
  }
  if (issue.code === 'invalid_value' && message.startsWith('Invalid option') && issue.values.length > 0) {
    return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
  }
  return message;
}

/** A required query parameter, as one string. */
export function queryParam(query: Record<string, unknown>, name: string): string {
  const v = query[name];
  if (typeof v !== 'string' || v.trim() === '') throw new AppError('validation', `${name} is required`, { field: name });
  return v.trim();
}

/** Route ids are UUIDs or short slugs; anything else is a 404, not a database error. */
export function idParam(value: string | undefined, what: string): string {
  if (!value || !/^[A-Za-z0-9-]{1,64}$/.test(value)) throw new AppError('not_found', `${what} not found`, { field: 'id' });
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
