import { SECRET_NAME } from '@tv-shop/platform';

/**
 * Keys whose values the event log never shows: the platform's one rule. The audit projection's
 * table definition names it, so changing it rebuilds the table (no row keeps what an older rule
 * let through).
 */
export const SECRET_KEY = SECRET_NAME;
export const HIDDEN = '[hidden]';

/**
 * A copy of `value` fit to show an operator: every secret-looking key's value is `[hidden]`
 * (whether it was there still shows), and a Map or Set (a fold's state may hold them) becomes
 * plain JSON. Depth is bounded: events and folded states are shallow.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 32) return HIDDEN;
  if (value instanceof Map) return redact(Object.fromEntries(value), depth + 1);
  if (value instanceof Set) return redact([...value], depth + 1);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) && v !== null && v !== undefined ? HIDDEN : redact(v, depth + 1)]),
  );
}
