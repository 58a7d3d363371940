// `npm start`: build the web app when its build is missing or older than its sources, then run
// every service in one process (embedded PostgreSQL unless DATABASE_URL is set).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
if (!process.env.WEB_DIST && (!existsSync(built) || statSync(built).mtimeMs < sources)) {
  console.log('Building the web app (web/dist)...');
  const r = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const child = spawn(process.execPath, ['--import', 'tsx', 'services/gateway/src/main.ts'], { cwd: root, stdio: 'inherit' });
// Ctrl-C reaches the child through the terminal's process group; forward anything sent only to us.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
