#!/usr/bin/env node
// Browser journeys: build the web app the gateway serves, then drive it with Chromium.
import { spawnSync } from 'node:child_process';

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', shell: false });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run('npm', ['run', 'build', '-w', 'web']);
// Each route's JavaScript against its budget (ADR 0041): a heavier build fails here, before the browsers.
run('node', ['scripts/bundle-budget.mjs', 'web/dist']);
run('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)]);
