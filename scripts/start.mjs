// `npm start`: build the web app when its build is missing or older than its sources, then run
// every service in one process (embedded PostgreSQL unless DATABASE_URL is set).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const newest = (dir) => {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};
const built = path.join(root, 'web/dist/index.html');
const sources = Math.max(newest(path.join(root, 'web')), newest(path.join(root, 'packages/contracts/src')));
// A blank WEB_DIST is unset, as the gateway reads it (services/gateway/src/config.ts).
if (!process.env.WEB_DIST?.trim() && (!existsSync(built) || statSync(built).mtimeMs < sources)) {
  console.log('Building the web app (web/dist)...');
  const r = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// The IPC channel tells the server when this process is gone (even by kill -9), so it stops too
// instead of living on, orphaned, with the port and the database.
const child = spawn(process.execPath, ['--import', 'tsx', 'services/shop/src/main.ts'], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
});
// Ctrl-C reaches the child through the terminal's process group; forward anything sent only to us.
const asked = new Set();
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    asked.add(sig);
    child.kill(sig);
  });
}
// A supervisor restarts us on a non-zero exit: a server that stopped because someone asked is a
// clean exit (0); one that crashed, or was killed by a signal that did not come through us
// (kill -9 of the server, the OOM killer), is not (its code, or 128 + the signal's number).
child.on('exit', (code, signal) => {
  if (asked.size > 0 && (code === 0 || (signal && asked.has(signal)) || (code !== null && code > 128))) process.exit(0);
  if (signal) {
    console.error(`The TV Shop server was killed by ${signal}`);
    process.exit(128 + (os.constants.signals[signal] ?? 0));
  }
  process.exit(code ?? 1);
});
child.on('error', (err) => {
  console.error(`Could not start the TV Shop server: ${err.message}`);
  process.exit(1);
});
