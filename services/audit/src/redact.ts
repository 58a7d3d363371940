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
 * (whether it was there still shows), or what `hidden` says of it by its path (time travel says
 * when it was set); a Map or Set (a fold's state may hold them) becomes plain JSON. Depth is
 * bounded: events and folded states are shallow.
 */
export function redact(value: unknown, hidden: (path: string) => string = () => HIDDEN): unknown {
  return walk(value, (path, v) => (v === null || v === undefined ? v : hidden(path)));
}

/** Each secret-looking key's value in `value` (at any depth, by path), as JSON. */
export function secretsOf(value: unknown): Map<string, string> {
  const found = new Map<string, string>();
  walk(value, (path, v) => {
    // (A value JSON cannot say, a function or a symbol, is not a secret an event carries.)
    if (v !== null && v !== undefined) found.set(path, JSON.stringify(v) ?? typeof v);
    return v;
  });
  return found;
}

/** A copy of `value` as JSON shows it, each secret-looking key's value replaced by `secret`'s answer. */
function walk(value: unknown, secret: (path: string, value: unknown) => unknown, path = '', depth = 0): unknown {
  if (depth > 32) return HIDDEN;
  if (value instanceof Map) return walk(Object.fromEntries(value), secret, path, depth + 1);
  if (value instanceof Set) return walk([...value], secret, path, depth + 1);
  if (Array.isArray(value)) return value.map((v, i) => walk(v, secret, `${path}[${i}]`, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const at = path ? `${path}.${k}` : k;
      return [k, SECRET_KEY.test(k) ? secret(at, v) : walk(v, secret, at, depth + 1)];
    }),
  );
}
