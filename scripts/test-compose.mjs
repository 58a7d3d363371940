#!/usr/bin/env node
// `npm run test:compose`: TV Shop in containers, for real, on this machine.
//
//   1. a Docker engine (scripts/docker/engine.sh; if none can be had: "skipped: ..." and exit 0)
//   2. the images, built locally (scripts/docker/build-images.sh all)
//   3. the testcontainers path: a subset of the suites with TEST_CONTAINERS (PostgreSQL and Redis
//      in containers of the locally built images)
//   4. docker-compose.yml + docker-compose.local.yml up as project tvshop-test, wait until every
//      service is healthy, run the smoke test (test/compose, vitest.compose.config.ts) through the
//      gateway, print the containers' logs on failure, and always take the stack down (down -v).
//
// Arguments after `--` go to vitest (e.g. --reporter=json --outputFile.json=report.json); the
// testcontainers run writes its JSON report beside it (report.testcontainers.json).
// TVSHOP_COMPOSE_KEEP=1 leaves the stack up after the run (for a look around); down -v takes it away.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NO_ENGINE = 3;
const PROJECT = 'tvshop-test';
const HEALTH_TIMEOUT_MS = 240_000;
const vitestArgs = process.argv.slice(2);
const timings = [];
const t0 = Date.now();
const say = (m) => console.log(`test:compose: ${m}`);
const phase = async (name, fn) => {
  const t = Date.now();
  say(`${name}...`);
  try {
    return await fn();
  } finally {
    timings.push(`${name} ${((Date.now() - t) / 1000).toFixed(0)} s`);
  }
};
const run = (cmd, args, opts = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: opts.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: opts.env ?? process.env });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('exit', (code, signal) => resolve({ code: code ?? 128, signal, out }));
    child.on('error', (err) => resolve({ code: 127, out: String(err) }));
  });

// 1. The engine.
const engine = await phase('container engine', () => run('bash', ['scripts/docker/engine.sh']));
if (engine.code === NO_ENGINE) {
  say('skipped: no container engine (the reason is printed above)');
  // The report asked for says so, rather than being missing (which CI counts as a failure).
  const out = vitestArgs.find((a) => a.startsWith('--outputFile.json='))?.slice('--outputFile.json='.length);
  if (out)
    writeFileSync(
      out,
      JSON.stringify({ numPassedTests: 0, numFailedTests: 0, testResults: [], skipped: 'no container engine on this machine' }),
    );
  process.exit(0);
}
if (engine.code !== 0) {
  say(`scripts/docker/engine.sh failed (exit ${engine.code})`);
  process.exit(1);
}

// 2. The images.
const images = await phase('images', () => run('bash', ['scripts/docker/build-images.sh', 'all']));
if (images.code !== 0) {
  say('building the images failed');
  process.exit(1);
}

// 3. The testcontainers path.
const reportFor = (suffix) =>
  vitestArgs.map((a) =>
    a.startsWith('--outputFile.json=') ? a.replace(/(\.json)?$/, `.${suffix}.json`).replace(/\.json\.(\w+)\.json$/, '.$1.json') : a,
  );
let failed = false;
const undiciNeeds = (() => {
  // testcontainers 12 brings undici 8, which needs Node 22.19+: on an older Node it cannot even load.
  try {
    const nested = path.join(root, 'node_modules/testcontainers/node_modules/undici/package.json');
    const file = existsSync(nested) ? nested : path.join(root, 'node_modules/undici/package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    const [maj, min] = (pkg.engines?.node ?? '')
      .replace(/[^\d.]/g, '')
      .split('.')
      .map(Number);
    const [nmaj, nmin] = process.versions.node.split('.').map(Number);
    return maj && (nmaj < maj || (nmaj === maj && nmin < (min ?? 0)))
      ? `undici ${pkg.version} (used by testcontainers) needs Node ${pkg.engines.node}, this is ${process.version}`
      : null;
  } catch {
    return null;
  }
})();
if (undiciNeeds) {
  say(`testcontainers path skipped: ${undiciNeeds}; pin testcontainers and @testcontainers/* to ^11 (undici 7) to run it`);
} else {
  const tc = await phase('testcontainers suites', () =>
    run(
      'npx',
      [
        'vitest',
        'run',
        'packages/platform/src/event-store/postgres',
        'packages/platform/src/change-feed/redis',
        'services/catalog',
        ...reportFor('testcontainers'),
      ],
      { env: { ...process.env, TEST_CONTAINERS: 'postgres,redis', TEST_CONTAINER_IMAGES: 'local', TESTCONTAINERS_RYUK_DISABLED: 'true' } },
    ),
  );
  if (tc.code !== 0) {
    say('the testcontainers suites failed');
    failed = true;
  }
}

// 4. The stack.
const isFree = (port) =>
  new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '0.0.0.0', () => srv.close(() => resolve(true)));
  });
const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '0.0.0.0', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
// Host networking: every port must be free on the host; the defaults, else any free one.
const ports = {
  TVSHOP_PG_PORT: 55432,
  TVSHOP_REDIS_PORT: 56379,
  TVSHOP_KAFKA_PORT: 29092,
  TVSHOP_KAFKA_CONTROLLER_PORT: 29093,
  TVSHOP_IDENTITY_PORT: 24001,
  TVSHOP_CATALOG_PORT: 24002,
  TVSHOP_ORDERS_PORT: 24003,
  TVSHOP_GATEWAY_PORT: 23000,
  TVSHOP_GATEWAY_METRICS_PORT: 29464,
  TVSHOP_IDENTITY_METRICS_PORT: 29465,
  TVSHOP_CATALOG_METRICS_PORT: 29466,
  TVSHOP_ORDERS_METRICS_PORT: 29467,
  TVSHOP_PROJECTOR_METRICS_PORT: 29468,
};
for (const [name, port] of Object.entries(ports)) {
  if (process.env[name]) ports[name] = Number(process.env[name]);
  else if (!(await isFree(port))) ports[name] = await freePort();
}
// Fresh secrets for every run: nothing secret lives in the compose files or the images.
const secret = () => randomBytes(18).toString('hex');
const env = {
  ...process.env,
  ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  POSTGRES_PASSWORD: secret(),
  COMMAND_TOKEN: secret(),
  JWT_SECRET: secret(),
  ADMIN_PASSWORD: secret(),
  METRICS_TOKEN: secret(),
};
// docker-compose.yml + docker-compose.local.yml, through the helper that makes them one file
// without published ports (docker-compose 1.x refuses those on host networking).
const compose = ['-p', PROJECT];
const dc = (args, opts = {}) => run('bash', ['scripts/docker/compose-local.sh', ...compose, ...args], { env, ...opts });

let stackUp = false;
const down = async () => {
  if (process.env.TVSHOP_COMPOSE_KEEP === '1')
    return say(`left running (TVSHOP_COMPOSE_KEEP=1): scripts/docker/compose-local.sh ${compose.join(' ')} down -v`);
  await phase('stack down', () => dc(['down', '-v', '--remove-orphans', '--timeout', '10'], { quiet: true }));
};
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    say(`${sig}: taking the stack down`);
    void down().then(() => process.exit(130));
  });
}

const containerIds = async () => (await dc(['ps', '-q'], { quiet: true })).out.split('\n').filter(Boolean);
const healthOf = (ids) => {
  const r = spawnSync(
    'docker',
    ['inspect', '-f', '{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}', ...ids],
    {
      encoding: 'utf8',
    },
  );
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [name, state, health] = l.split(' ');
      return { name: name.replace(/^\//, ''), state, health };
    });
};

let smoke = { code: 1 };
try {
  // A stack left by a run that was killed would hold the ports.
  await dc(['down', '-v', '--remove-orphans', '--timeout', '5'], { quiet: true });
  const up = await phase('stack up', () => dc(['up', '-d', '--no-build']));
  stackUp = true;
  if (up.code !== 0) throw new Error('docker-compose up failed');
  await phase('stack healthy', async () => {
    const deadline = Date.now() + HEALTH_TIMEOUT_MS;
    for (;;) {
      const states = healthOf(await containerIds());
      const waiting = states.filter((s) => s.health !== 'healthy');
      if (states.length >= 8 && waiting.length === 0) return say(`all ${states.length} containers healthy`);
      const dead = states.filter((s) => s.state === 'exited' || s.state === 'dead' || s.health === 'unhealthy');
      if (dead.length) throw new Error(`not running or unhealthy: ${dead.map((s) => `${s.name} (${s.state}/${s.health})`).join(', ')}`);
      if (Date.now() > deadline)
        throw new Error(`not healthy within ${HEALTH_TIMEOUT_MS / 1000} s: ${waiting.map((s) => `${s.name} (${s.health})`).join(', ')}`);
      await sleep(2000);
    }
  });
  const url = `http://127.0.0.1:${ports.TVSHOP_GATEWAY_PORT}`;
  smoke = await phase('smoke test', () =>
    run('npx', ['vitest', 'run', '-c', 'vitest.compose.config.ts', ...vitestArgs], {
      env: {
        ...process.env,
        TVSHOP_COMPOSE_URL: url,
        // The health detail is the admin's, /metrics on the public port the token holder's.
        TVSHOP_COMPOSE_ADMIN_PASSWORD: env.ADMIN_PASSWORD,
        TVSHOP_COMPOSE_METRICS_TOKEN: env.METRICS_TOKEN,
        TVSHOP_COMPOSE_METRICS_URL: `http://127.0.0.1:${ports.TVSHOP_PROJECTOR_METRICS_PORT}`,
      },
    }),
  );
  if (smoke.code !== 0) throw new Error('the smoke test failed');
  // What each container ran on, in its own words (the topology line every process logs at start).
  const logs = await dc(['logs', '--no-color'], { quiet: true });
  for (const line of logs.out.split('\n').filter((l) => /topology: |takes commands at|projecting \(/.test(l)))
    say(line.replace(/^(\S+)\s*\|.*?(services here: [^"]*).*$/, '$1 $2'));
} catch (err) {
  failed = true;
  say(String(err instanceof Error ? err.message : err));
  if (stackUp) {
    say('containers:');
    await dc(['ps']);
    say('their logs (last 150 lines each):');
    await dc(['logs', '--no-color', '--tail=150']);
  }
} finally {
  await down();
}
say(`${failed ? 'FAILED' : 'passed'} in ${((Date.now() - t0) / 1000).toFixed(0)} s (${timings.join(', ')})`);
process.exit(failed ? 1 : 0);
