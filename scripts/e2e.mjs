#!/usr/bin/env node
// Browser journeys: build the web app the gateway serves, then drive it with Chromium.
import { spawnSync } from 'node:child_process';

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', shell: false });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run('npm', ['run', 'build', '-w', 'web']);
run('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)]);
