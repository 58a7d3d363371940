import { createLogger } from '@tv-shop/platform';
import { startAll } from './all-in-one';

const log = createLogger('tv-shop');
try {
  const running = await startAll();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down`);
    await running.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (err) {
  log.error('TV Shop could not start', { error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}
