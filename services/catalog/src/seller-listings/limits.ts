/** How far one seller may go (ADR 0035); 0 turns a limit off. */
export interface ListingLimits {
  /** TVs one seller may have for sale at once. */
  active: number;
  /** New listings one seller may add within an hour. */
  perHour: number;
}

export const DEFAULT_LISTING_LIMITS: ListingLimits = { active: 100, perHour: 30 };

/** True when at least one limit is on: only then are slots kept. */
export const limitsOn = (limits: ListingLimits): boolean => limits.active > 0 || limits.perHour > 0;

/**
 * LISTING_LIMIT_ACTIVE (100) and LISTING_LIMIT_PER_HOUR (30), whole numbers, 0 for off (load
 * tests and benchmarks). Unset or blank (compose passes blanks) is the default; anything else
 * stops the start naming the variable.
 */
export function listingLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): ListingLimits {
  return {
    active: wholeNumber(env, 'LISTING_LIMIT_ACTIVE', DEFAULT_LISTING_LIMITS.active),
    perHour: wholeNumber(env, 'LISTING_LIMIT_PER_HOUR', DEFAULT_LISTING_LIMITS.perHour),
  };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n))
    throw new Error(`Invalid environment variable ${name}: must be a whole number, 0 or more (0 turns the limit off), not "${raw}"`);
  return n;
}
