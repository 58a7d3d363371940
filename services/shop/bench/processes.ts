// What the benchmarks that load a server from another process share: a scratch database on a
// PostgreSQL server (dropped after), a server started as a child process that prints
// {"url": ...} once it serves (or the projector, once it projects), and a TV Shop seller with a
// listing body.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';

/** The PostgreSQL server the benchmarks create their databases on (any database on it to connect to). */
export const SERVER_URL = process.env.SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** A fresh database on SERVER_URL's server, named `<prefix>_<time>_<random>`; drop() removes it. */
export async function scratchDatabase(prefix: string) {
  const name = `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: SERVER_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface Child {
  pid: number;
  stop(): Promise<void>;
}
export interface ChildServer extends Child {
  url: string;
}

/**
 * Starts `node <args>` from the repository's root and waits for the first stdout line that is a
 * JSON object `announces` finds its announcement in (it answers undefined for any other). Its
 * stderr and any other output go to this process's stderr. stop() sends SIGTERM to that child
 * (only it) and SIGKILL if it has not exited 15 s later.
 */
async function startChild(
  label: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  announces: (line: Record<string, unknown>) => string | undefined,
): Promise<Child & { announced: string }> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (b: Buffer) => process.stderr.write(`[${label}] ${b.toString()}`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const announced = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start within 120 s`)), 120_000);
    child.once('exit', (code) => reject(new Error(`${label} exited (${code}) before serving`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const announcement = announces(JSON.parse(line) as Record<string, unknown>);
        if (announcement !== undefined) {
          clearTimeout(timer);
          resolve(announcement);
          return;
        }
      } catch {
        // not the announcement
      }
      process.stderr.write(`[${label}] ${line}\n`);
    });
  }).catch(async (err: unknown) => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    throw err;
  });
  return {
    announced,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Starts `node <args>` (startChild) and waits for it to print {"url": ...}. */
export async function startServer(label: string, args: string[], env: NodeJS.ProcessEnv): Promise<ChildServer> {
  const { announced, ...child } = await startChild(label, args, env, (line) => (typeof line.url === 'string' ? line.url : undefined));
  // The load goes to 127.0.0.1 only, whatever name the server gives itself.
  return { ...child, url: announced.replace('//localhost:', '//127.0.0.1:') };
}

/**
 * TV Shop in a child process (serve.ts) on `databaseUrl`; `settings` are more of the shop's
 * environment variables (a gateway's beside others: REDIS_URL, PROJECTOR=external, ...).
 */
export const startTvShop = (databaseUrl: string, name: string, settings: Record<string, string> = {}, label = 'tv-shop') =>
  startServer(label, ['--import', 'tsx', 'services/shop/bench/serve.ts'], {
    DATABASE_URL: databaseUrl,
    BENCH_NAME: name,
    BENCH_SETTINGS: JSON.stringify(settings),
    LOG_LEVEL: 'error',
  });

/**
 * The projector as its own process (`npm run projector -- run`) on `databaseUrl`, announcing its
 * changes on Redis. It serves nothing: it is ready once it logs that it projects (its one info
 * line at start), and its other info lines go to stderr.
 */
export const startProjectorProcess = (databaseUrl: string, redis: { url: string; channel: string }): Promise<Child> =>
  startChild(
    'projector',
    ['--import', 'tsx', 'services/projector/src/main.ts', 'run'],
    { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, REDIS_CHANNEL: redis.channel, LOG_LEVEL: 'info', METRICS_PORT: '0' },
    (line) => (line.component === 'projector' && typeof line.msg === 'string' && line.msg.startsWith('projecting') ? line.msg : undefined),
  );

/** Signs a new seller up on TV Shop at `url`; answers the bearer token. */
export async function signUpSeller(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench Seller',
      email: `bench${Date.now()}${Math.floor(Math.random() * 1e6)}@x.co`,
      password: 'secret-pass',
      role: 'Seller',
    }),
  });
  if (!res.ok) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** The body of TV Shop's POST /api/products, as the web app sends it. */
export const tvListing = (i: number) =>
  JSON.stringify({
    porduct_name: `Bench TV ${i}`,
    productImage: 'https://example.com/tv.png',
    details: 'A TV for the benchmark',
    location: 'Dhaka',
    resale_price: 1000 + (i % 1000),
    orginal_price: 5000,
    use_duration: '2 years',
    phone_number: '01700000000',
    product_condition: 'Good',
    category_id: 'sony',
  });

/** The p-th percentile of `xs` (ms), or NaN when there are none. */
export const percentile = (xs: number[], p: number): number =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
