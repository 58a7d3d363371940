// TV Shop against a peer built on Emmett's published packages (bench/peer/emmett-service.mjs),
// both on fresh databases of the same PostgreSQL server, each in its own process, loaded by the
// same autocannon in this process, interleaved A B A B, with pgbench's single-row commit rate
// on that server as the ceiling.
//   npm run bench:peer          (PAIRS=3 SECONDS=15 CONNECTIONS=16; SERVER_URL for another server)
// Two writes each:
//   new stream:      TV Shop POST /api/products by a seller | peer POST /listings
//   existing stream: TV Shop PUT /api/product/sold_status/:id then unsold_status, alternating on a
//                    pool of the seller's products | peer PUT /listings/:id/sold then /unsold
import autocannon from 'autocannon';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isLocalServer, machineCpu, postgresCpu, processCpu } from './cpu';
import { median, repoRoot, scratchDatabase, signUpSeller, startServer, startTvShop, tvListing, type ChildServer } from './processes';

const PAIRS = Number(process.env.PAIRS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 15);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
/** Streams per connection in the existing-stream runs: each is toggled by one connection at a time. */
const POOL_PER_CONNECTION = 16;
const WARMUP_SECONDS = Math.min(3, SECONDS);
const PEER_DIR = path.join(repoRoot, 'bench/peer');

type Side = 'tv' | 'peer';
type Kind = 'new' | 'existing';
interface Run {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpu: RunCpu;
}
/** Where a run's CPU went, per successful write (null where it could not be read). */
interface RunCpu {
  /** ms of the service's own process. */
  process: number | null;
  /** ms of PostgreSQL's processes (the server on this machine only). */
  postgres: number | null;
  /** The service's process, as a share of one core. */
  processShare: number | null;
  /** The machine's cores, as a share of all of them. */
  machineBusy: number | null;
}

/** The peer's packages live apart from the workspace (docs/adr/0042): installed from its own lock file on first use. */
function ensurePeerInstalled() {
  if (existsSync(path.join(PEER_DIR, 'node_modules/.package-lock.json'))) return;
  console.log('installing the peer (bench/peer, from its package-lock.json) ...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: PEER_DIR, stdio: 'inherit' });
}

/** pgbench from PATH, else the newest under /usr/lib/postgresql/<version>/bin (PGBENCH to choose). */
function findPgbench(): string {
  if (process.env.PGBENCH) return process.env.PGBENCH;
  if (spawnSync('pgbench', ['--version']).status === 0) return 'pgbench';
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin/pgbench')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error('pgbench not found: put it on PATH or set PGBENCH');
  return path.join(root, versions[0], 'bin/pgbench');
}

/** Commits per second of one-row inserts into a scratch table: 8 clients, 2 threads, 10 s. */
async function pgbenchCeiling(pgbench: string, databaseUrl: string): Promise<number> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  await c.query(
    'create table if not exists scratch (id bigserial primary key, client int not null, at timestamptz not null default now())',
  );
  await c.end();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-pgbench-'));
  const script = path.join(dir, 'insert-one.sql');
  await writeFile(script, 'insert into scratch (client) values (:client_id);\n');
  try {
    const out = execFileSync(pgbench, ['-c', '8', '-j', '2', '-T', '10', '-n', '-f', script, databaseUrl], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tps = /tps = ([\d.]+)/.exec(out);
    if (!tps) throw new Error(`no tps in pgbench's output:\n${out}`);
    return Number(tps[1]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Keeps each stream of a pool with at most one write at a time, and knows whether it is sold. */
function togglePool(ids: string[]) {
  const sold = new Map(ids.map((id) => [id, false]));
  const busy = new Set<string>();
  let next = 0;
  return {
    /** The next idle stream and whether its write marks it sold. */
    take(): { id: string; sell: boolean } {
      for (let tries = 0; tries < ids.length; tries++) {
        const id = ids[next++ % ids.length]!;
        if (busy.has(id)) continue;
        busy.add(id);
        return { id, sell: !sold.get(id) };
      }
      throw new Error('every stream of the pool is busy: raise POOL_PER_CONNECTION');
    },
    done(id: string, ok: boolean) {
      busy.delete(id);
      if (ok) sold.set(id, !sold.get(id));
    },
  };
}

interface Target {
  server: ChildServer;
  /** A new-stream write's request. */
  create: { path: string; headers: Record<string, string>; body: string };
  /** Makes `n` streams to toggle; answers their ids. */
  makePool(n: number): Promise<string[]>;
  togglePath(id: string, sell: boolean): string;
  headers: Record<string, string>;
}

async function makeMany(n: number, one: (i: number) => Promise<string>): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 16) ids.push(...(await Promise.all(Array.from({ length: Math.min(16, n - i) }, (_, k) => one(i + k)))));
  return ids;
}

async function tvTarget(server: ChildServer): Promise<Target> {
  const token = await signUpSeller(server.url);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  return {
    server,
    headers,
    create: { path: '/api/products', headers, body: tvListing(0) },
    makePool: (n) =>
      makeMany(n, async (i) => {
        const res = await fetch(`${server.url}/api/products`, { method: 'POST', headers, body: tvListing(i) });
        if (res.status !== 201) throw new Error(`TV Shop POST /api/products answered ${res.status}: ${await res.text()}`);
        return ((await res.json()) as { insertedId: string }).insertedId;
      }),
    togglePath: (id, sell) => `/api/product/${sell ? 'sold_status' : 'unsold_status'}/${id}`,
  };
}

function peerTarget(server: ChildServer): Target {
  const headers = { 'content-type': 'application/json', 'x-seller': 'bench-seller' };
  const listing = (i: number) =>
    JSON.stringify({
      name: `Bench TV ${i}`,
      details: 'A TV for the benchmark',
      location: 'Dhaka',
      condition: 'Good',
      phone: '01700000000',
      categoryId: 'sony',
      imageUrl: 'https://example.com/tv.png',
      resalePrice: 1000 + (i % 1000),
      originalPrice: 5000,
    });
  return {
    server,
    headers,
    create: { path: '/listings', headers, body: listing(0) },
    makePool: (n) =>
      makeMany(n, async (i) => {
        const res = await fetch(`${server.url}/listings`, { method: 'POST', headers, body: listing(i) });
        if (res.status !== 201) throw new Error(`peer POST /listings answered ${res.status}: ${await res.text()}`);
        return ((await res.json()) as { id: string }).id;
      }),
    togglePath: (id, sell) => `/listings/${id}/${sell ? 'sold' : 'unsold'}`,
  };
}

async function load(target: Target, kind: Kind, seconds: number, connections: number): Promise<Run> {
  let requests: autocannon.Request[];
  if (kind === 'new') {
    requests = [{ method: 'POST', ...target.create }];
  } else {
    const pool = togglePool(await target.makePool(POOL_PER_CONNECTION * connections));
    requests = [
      {
        method: 'PUT',
        headers: target.headers,
        setupRequest: (req, context) => {
          const { id, sell } = pool.take();
          (context as { id?: string }).id = id;
          return { ...req, path: target.togglePath(id, sell) };
        },
        onResponse: (status, _body, context) => pool.done((context as { id: string }).id, status >= 200 && status < 300),
      },
    ];
  }
  const before = { process: processCpu(target.server.pid), postgres: postgresCpuHere(), machine: machineCpu(), at: performance.now() };
  const result = await autocannon({ url: target.server.url, connections, duration: seconds, requests });
  const elapsed = (performance.now() - before.at) / 1000;
  const after = { process: processCpu(target.server.pid), postgres: postgresCpuHere(), machine: machineCpu() };
  const writes = Math.max(1, result['2xx']);
  const used = (a: number | null, b: number | null) => (a !== null && b !== null ? a - b : null);
  const processUsed = used(after.process, before.process);
  const postgresUsed = used(after.postgres, before.postgres);
  const cpu: RunCpu = {
    process: processUsed === null ? null : (processUsed * 1000) / writes,
    postgres: postgresUsed === null ? null : (postgresUsed * 1000) / writes,
    processShare: processUsed === null ? null : processUsed / elapsed,
    machineBusy:
      after.machine && before.machine ? (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total) : null,
  };
  return { rps: result['2xx'] / result.duration, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, cpu };
}

/** PostgreSQL's CPU so far, when its server is this machine's. */
const postgresCpuHere = () => (isLocalServer(dbs.tv.url) ? postgresCpu() : null);

const ms = (x: number | null) => (x === null ? '?' : x.toFixed(2));
const pct = (x: number | null) => (x === null ? '?' : `${(100 * x).toFixed(0)}%`);

const fmt = (r: Run) =>
  `${r.rps.toFixed(0).padStart(5)} rps  p99 ${r.p99.toFixed(0).padStart(4)} ms  CPU/write ${ms(r.cpu.process)} + PG ${ms(r.cpu.postgres)} ms, process ${pct(r.cpu.processShare)} of a core, machine ${pct(r.cpu.machineBusy)} busy${r.non2xx || r.errors ? `  (${r.non2xx} non-2xx, ${r.errors} errors)` : ''}`;

ensurePeerInstalled();
const pgbench = findPgbench();
const dbs = {
  tv: await scratchDatabase('tvshop_peer'),
  peer: await scratchDatabase('emmett_peer'),
  scratch: await scratchDatabase('pgbench_peer'),
};
const servers: ChildServer[] = [];
let interrupted = false;
const cleanUp = async () => {
  for (const s of servers.splice(0)) await s.stop().catch(() => {});
  for (const db of Object.values(dbs)) await db.drop().catch((err: unknown) => console.error(`could not drop ${db.name}:`, err));
};
process.once('SIGINT', () => {
  interrupted = true;
  void cleanUp().finally(() => process.exit(130));
});

try {
  console.log(
    `server: ${new URL(dbs.tv.url).host}, ${await serverSettings()}; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const before = await pgbenchCeiling(pgbench, dbs.scratch.url);
  console.log(`ceiling: pgbench, one-row insert per transaction, 8 clients -j 2, 10 s: ${before.toFixed(0)} commits/s`);

  const tvServer = await startTvShop(dbs.tv.url, 'peer');
  servers.push(tvServer);
  const peerServer = await startServer('emmett', [path.join(PEER_DIR, 'emmett-service.mjs')], { DATABASE_URL: dbs.peer.url, PORT: '0' });
  servers.push(peerServer);
  const targets: Record<Side, Target> = { tv: await tvTarget(tvServer), peer: peerTarget(peerServer) };
  const names: Record<Side, string> = { tv: 'TV Shop', peer: 'Emmett ' };

  for (const side of ['tv', 'peer'] as const)
    for (const kind of ['new', 'existing'] as const) await load(targets[side], kind, WARMUP_SECONDS, 4);

  const runs: Record<Kind, Record<Side, Run[]>> = { new: { tv: [], peer: [] }, existing: { tv: [], peer: [] } };
  const label: Record<Kind, string> = {
    new: 'new stream (TV Shop POST /api/products | Emmett POST /listings)',
    existing: 'existing stream (TV Shop PUT sold_status / unsold_status | Emmett PUT /listings/:id/sold / unsold)',
  };
  console.log(`${PAIRS} pairs, ${CONNECTIONS} connections, ${SECONDS} s a run, A B interleaved:`);
  for (let pair = 1; pair <= PAIRS; pair++) {
    for (const kind of ['new', 'existing'] as const) {
      for (const side of ['tv', 'peer'] as const) {
        const run = await load(targets[side], kind, SECONDS, CONNECTIONS);
        runs[kind][side].push(run);
        console.log(`  pair ${pair} ${kind.padEnd(8)} ${names[side]}  ${fmt(run)}`);
      }
    }
  }

  const after = await pgbenchCeiling(pgbench, dbs.scratch.url);
  console.log(`\nceiling again after the pairs: ${after.toFixed(0)} commits/s`);
  for (const kind of ['new', 'existing'] as const) {
    const m = (side: Side) => ({ rps: median(runs[kind][side].map((r) => r.rps)), p99: median(runs[kind][side].map((r) => r.p99)) });
    const tv = m('tv');
    const peer = m('peer');
    console.log(`\n${label[kind]}`);
    for (const side of ['tv', 'peer'] as const)
      console.log(
        `  ${names[side]}  runs: ${runs[kind][side].map((r) => `${r.rps.toFixed(0)} rps / p99 ${r.p99.toFixed(0)} ms`).join(', ')}`,
      );
    console.log(
      `  median  TV Shop ${tv.rps.toFixed(0)} rps, p99 ${tv.p99.toFixed(0)} ms | Emmett ${peer.rps.toFixed(0)} rps, p99 ${peer.p99.toFixed(0)} ms`,
    );
    const cpuOf = (side: Side): RunCpu => {
      const all = runs[kind][side].map((r) => r.cpu);
      const mid = (pick: (c: RunCpu) => number | null) => {
        const xs = all.map(pick).filter((x): x is number => x !== null);
        return xs.length === all.length ? median(xs) : null;
      };
      return {
        process: mid((c) => c.process),
        postgres: mid((c) => c.postgres),
        processShare: mid((c) => c.processShare),
        machineBusy: mid((c) => c.machineBusy),
      };
    };
    const cpu = { tv: cpuOf('tv'), peer: cpuOf('peer') };
    const sum = (c: RunCpu) => (c.process === null || c.postgres === null ? null : c.process + c.postgres);
    for (const side of ['tv', 'peer'] as const)
      console.log(
        `  ${names[side]}  CPU per write ${ms(cpu[side].process)} ms in its process + ${ms(cpu[side].postgres)} ms in PostgreSQL = ${ms(sum(cpu[side]))} ms; process ${pct(cpu[side].processShare)} of a core, machine ${pct(cpu[side].machineBusy)} busy`,
      );
    const tvSum = sum(cpu.tv);
    const peerSum = sum(cpu.peer);
    if (cpu.tv.process !== null && cpu.peer.process !== null)
      console.log(
        `  TV Shop / Emmett: ${(cpu.tv.process / cpu.peer.process).toFixed(2)}x the CPU per write in the process${tvSum !== null && peerSum !== null ? `, ${(tvSum / peerSum).toFixed(2)}x with PostgreSQL's` : " (PostgreSQL's not measured: no PostgreSQL process of this machine could be read, or SERVER_URL names another)"}`,
      );
    console.log(
      `  TV Shop / Emmett: ${(tv.rps / peer.rps).toFixed(2)}x the writes/s, ${(tv.p99 / peer.p99).toFixed(2)}x the p99; TV Shop at ${((100 * tv.rps) / before).toFixed(0)}% of the pgbench ceiling, Emmett at ${((100 * peer.rps) / before).toFixed(0)}%`,
    );
  }
} finally {
  if (!interrupted) await cleanUp();
}

/** The server's version and the settings that decide what a commit costs. */
async function serverSettings(): Promise<string> {
  const c = new pg.Client({ connectionString: dbs.scratch.url });
  await c.connect();
  try {
    const show = async (name: string) => (await c.query<Record<string, string>>(`show ${name}`)).rows[0]?.[name] ?? '?';
    return `PostgreSQL ${await show('server_version')}, fsync ${await show('fsync')}, synchronous_commit ${await show('synchronous_commit')}`;
  } finally {
    await c.end();
  }
}
