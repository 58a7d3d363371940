// `npm run stack`: TV Shop as a cluster on one machine, over Kafka. Identity, catalog and orders
// each in a process of their own taking commands from Kafka, the projector host relaying the log
// to Kafka and projecting it from there, and two gateways (PORT and PORT+1, default 3000 and
// 3001) sharing users, listings, pushes (Redis) and photos (PostgreSQL). The broker is
// KAFKA_BROKERS, or a local one started here (scripts/kafka.mjs); DATABASE_URL and REDIS_URL
// default to the machine's PostgreSQL (database tvshop_stack, made if missing) and Redis.
// Ctrl-C stops all of it. Also used by the whole-stack tests (`startStack`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { ensureKafka } from './kafka.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The processes of the stack: what each runs and how it tells that it is up. */
const PROCESSES = {
  identity: { main: 'services/identity/src/main.ts', port: 4001, health: '/health' },
  catalog: { main: 'services/catalog/src/main.ts', port: 4002, health: '/health' },
  orders: { main: 'services/orders/src/main.ts', port: 4003, health: '/health' },
  projector: { main: 'services/projector/src/main.ts', args: ['run'] },
  'gateway-a': { main: 'services/shop/src/main.ts', gateway: 0, health: '/api/ready' },
  'gateway-b': { main: 'services/shop/src/main.ts', gateway: 1, health: '/api/ready' },
};

/** Makes the stack's database on the machine's PostgreSQL when DATABASE_URL is not given. */
async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  // A server that does not answer (a firewall dropping packets) is said within seconds, not waited on.
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 10_000, query_timeout: 30_000 });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw new Error(
      `PostgreSQL at ${target.host} could not be reached to create ${name}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** Whether something already accepts connections on 127.0.0.1:`port`. */
const taken = (port) =>
  new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

async function waitUntilUp(name, url, child, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    // Only while its own process lives: an answer from anything else on the port is not it.
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited (${child.signalCode ?? `code ${child.exitCode}`}) while starting`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} did not answer ${url} within ${timeoutMs} ms`);
}

/**
 * Starts the whole stack and answers when every process is up. `env` adds to (and overrides)
 * the stack's environment; `quiet` keeps the children's logs out of the terminal.
 *
 * `processes` (tests; unset, the stack above) adjusts processes by name or adds more, each
 * `{ like, skip, port, env, wrap, healthUrl }`: `like` makes a new name another instance of one
 * above ('catalog', 'projector', 'gateway-b', ...); `skip` leaves it out; `port` and `env` (added
 * to the stack's) are its own; `wrap` prefixes its command line (`['ip', 'netns', 'exec', ns]`:
 * run it in a network namespace); `healthUrl` is where it tells it is up, when this machine
 * cannot reach it on 127.0.0.1 (null: do not wait for it). `onStarting` is handed the stack's
 * `stop` before anything starts, so that an interrupted start can stop what it had started.
 */
export async function startStack(opts = {}) {
  const port = Number(opts.port ?? process.env.PORT ?? 3000);
  const log = opts.quiet ? () => {} : (line) => process.stdout.write(line);
  const databaseUrl = opts.databaseUrl ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tvshop_stack';
  const processes = { ...PROCESSES };
  for (const [name, o] of Object.entries(opts.processes ?? {})) {
    const base = processes[o.like ?? name];
    if (!base) throw new Error(`stack: no process ${o.like ?? name} to run ${name} like`);
    processes[name] = { ...base, ...o, env: { ...base.env, ...o.env } };
  }
  const started = Object.keys(processes).filter((name) => !processes[name].skip);
  const portOf = (name) => processes[name].port ?? (processes[name].gateway !== undefined ? port + processes[name].gateway : undefined);
  // A port already answering (npm start on 3000, a stack left running) would pass for the process
  // meant to be there: said now, before anything starts.
  for (const name of started) {
    const own = portOf(name);
    // (A process in a network namespace of its own has its ports there, not here.)
    if (own !== undefined && !processes[name].wrap && processes[name].healthUrl === undefined && (await taken(own)))
      throw new Error(`port ${own} (${name}) is in use: stop what listens there (npm start? another stack?) or set PORT`);
  }
  if (!opts.databaseUrl && !process.env.DATABASE_URL) await ensureDatabase(databaseUrl);
  if (!existsSync(path.join(root, 'web/dist/index.html')) && !process.env.WEB_DIST) {
    log('Building the web app (web/dist)...\n');
    const r = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: opts.quiet ? 'ignore' : 'inherit' });
    if (r.status !== 0) throw new Error('the web app did not build');
  }
  const children = new Map();
  /** The broker being started here, if one is: awaited by a stop that comes meanwhile. */
  let kafkaStarting = null;
  let kafka = null;
  let stopping = null;
  // Once, however many ask (Ctrl-C while a start that fails also stops it).
  const stop = () => (stopping ??= stopAll());
  const stopAll = async () => {
    await Promise.all(
      [...children.entries()].map(
        ([, child]) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', resolve);
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
          }),
      ),
    );
    children.clear();
    const broker = kafka ?? (await kafkaStarting?.catch(() => null));
    if (broker && !broker.reused) await broker.stop();
  };
  // From here on what was started can be stopped, also while the rest is still starting (Ctrl-C).
  opts.onStarting?.(stop);
  let brokers = opts.kafkaBrokers ?? process.env.KAFKA_BROKERS;
  if (!brokers) {
    kafkaStarting = ensureKafka({});
    kafka = await kafkaStarting;
    brokers = kafka.brokers.join(',');
    if (stopping) throw new Error('stopped while starting');
  }
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    KAFKA_BROKERS: brokers,
    COMMAND_BUS: 'kafka',
    EVENT_BUS: 'kafka',
    SERVICES_APART: 'all',
    PROJECTOR: 'external',
    IMAGE_STORE: 'postgres',
    // The shop's own topics and consumer groups: another database on the same broker gets its own.
    KAFKA_TOPIC_PREFIX: process.env.KAFKA_TOPIC_PREFIX ?? `tvshop.${decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || 'shop'}`,
    // One data dir for the stack: the processes generate the shared secrets there once.
    DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data/stack'),
    ...opts.env,
  };
  const spawnOne = (name) => {
    // Stopped meanwhile (Ctrl-C while an earlier one was coming up): nothing more starts.
    if (stopping) throw new Error('stopped while starting');
    const p = processes[name];
    const ownPort = portOf(name);
    const childEnv = { ...env, ...(ownPort ? { PORT: String(ownPort) } : {}), ...p.env };
    const argv = [...(p.wrap ?? []), process.execPath, '--import', 'tsx', p.main, ...(p.args ?? [])];
    const child = spawn(argv[0], argv.slice(1), {
      cwd: root,
      env: childEnv,
      // The IPC channel is a lifeline: when this process dies, even by kill -9, it closes and
      // each child stops itself (nothing is sent over it).
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const prefix = `[${name}] `;
    const relay = (chunk) => log(chunk.toString().replace(/^(?=.)/gm, prefix));
    child.stdout.on('data', relay);
    child.stderr.on('data', relay);
    // A process gone on its own is said, not left for the next request to find.
    child.once('exit', (code, signal) => {
      if (!stopping && children.get(name) === child) log(`${prefix}exited (${signal ?? `code ${code}`})\n`);
    });
    children.set(name, child);
    return child;
  };
  const urlOf = (name) => {
    const p = processes[name];
    if (p.healthUrl !== undefined) return p.healthUrl;
    if (!p.health) return null;
    return `http://127.0.0.1:${portOf(name)}${p.health}`;
  };
  const up = async (name, timeoutMs = 90_000) => {
    const url = urlOf(name);
    if (url) await waitUntilUp(name, url, children.get(name), timeoutMs);
  };
  try {
    // The services and the projector first: the gateways make the admin account at start.
    const gateways = started.filter((name) => processes[name].gateway !== undefined);
    const others = started.filter((name) => processes[name].gateway === undefined);
    for (const name of others) spawnOne(name);
    await Promise.all(others.map((n) => up(n)));
    for (const name of gateways) spawnOne(name);
    await Promise.all(gateways.map((n) => up(n)));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    urls: [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`],
    env,
    brokers: brokers.split(','),
    /** Kills one process with `signal` (SIGKILL: a crash) and answers when it is gone. */
    kill: (name, signal = 'SIGKILL') =>
      new Promise((resolve) => {
        const child = children.get(name);
        if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill(signal);
      }),
    /** Starts a killed process again and answers once it is up. */
    restart: async (name) => {
      spawnOne(name);
      await up(name);
    },
    pid: (name) => children.get(name)?.pid,
    stop,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let stopStack = null;
  let stopping = false;
  const shutdown = async (code) => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping the stack...');
    await stopStack?.().catch((err) => console.error(err));
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  try {
    const stack = await startStack({ onStarting: (stop) => (stopStack = stop) });
    console.log(`\nTV Shop stack is up: ${stack.urls.join(' and ')} (Kafka at ${stack.brokers.join(',')}). Ctrl-C stops it.\n`);
  } catch (err) {
    // Stopped by Ctrl-C while starting: that is no failure to report.
    if (!stopping) console.error(`the stack could not start: ${err instanceof Error ? err.message : String(err)}`);
    await shutdown(1);
  }
}
