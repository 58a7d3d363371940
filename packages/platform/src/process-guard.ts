import { describeError, isDatabaseUnavailable } from './errors';
import type { Logger } from './log';

/**
 * The last line of defence for a long-running process. Every database client has an 'error'
 * listener and every loop retries, so a database fault should never get here; if one still does
 * (a connection error nobody awaited), it is logged and the process keeps serving, since the
 * loops and the pool recover by themselves. Anything else is a bug: it is logged with its cause
 * and `fatal` runs (stop, exit non-zero, and let the supervisor start a fresh process).
 */
export function guardProcess(log: Logger, fatal: (err: unknown) => void): void {
  const handle = (kind: string) => (err: unknown) => {
    if (isDatabaseUnavailable(err)) {
      log.warn(`${kind} from a database connection; continuing (the connection is replaced)`, { error: describeError(err) });
      return;
    }
    log.error(`${kind}; stopping`, { error: describeError(err), stack: err instanceof Error ? err.stack : undefined });
    fatal(err);
  };
  process.on('uncaughtException', handle('uncaught exception'));
  process.on('unhandledRejection', handle('unhandled rejection'));
}
