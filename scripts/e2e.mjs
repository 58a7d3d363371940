#!/usr/bin/env node
// Browser journeys: build the web app the gateway serves, then drive it with Chromium.
import { spawnSync } from 'node:child_process';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit', shell: false }).status ?? 1;

const built = run('npm', ['run', 'build', '-w', 'web']);
if (built !== 0) process.exit(built);
// Each route's JavaScript against its budget (ADR 0041). A heavier build fails the run, after the
// journeys: they still say whether the app works.
const budget = run('node', ['scripts/bundle-budget.mjs', 'web/dist']);
const journeys = run('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)]);
if (budget !== 0) console.error('bundle budget: a route is over its ceiling (above); the journeys ran, the run fails');
process.exit(journeys !== 0 ? journeys : budget);
