/**
 * Delay before retry number `attempt` (1, 2, ...) of a long-running loop: 100 ms doubling up to
 * `capMs` (2 s), with a little jitter so a fleet does not reconnect in lockstep. With the cap at
 * 2 s a loop is back within about 2 s of the database returning, however long it was away.
 */
export function backoffMs(attempt: number, capMs = 2000): number {
  const base = Math.min(capMs, 100 * 2 ** Math.max(0, Math.min(attempt - 1, 10)));
  return Math.round(base * (0.8 + Math.random() * 0.2));
}
