// Prints how fast the PostgreSQL event store appends with concurrent writers and how fast a
// catch-up subscription reads. Uses TEST_DATABASE_URL's server if set, else an embedded one.
//   npm run bench            (EVENTS=8000 WRITERS=8 ROUNDS=3 WARMUP=1 PGBENCH_SECONDS=3 to change it)
// In the same run, in interleaved rounds, it measures appends one per transaction
// (maxGroupAppends 1: the store before group commit, ADR 0046) and, when pgbench is found
// (PGBENCH=path, or /usr/lib/postgresql/*/bin), the server's commit ceiling: WRITERS clients
// each committing a one-row insert. Figures are medians over the rounds. WARMUP rounds of both
// kinds of append go first and are printed but not counted: the first round of a new process
// appends 5-30% slower than the ones after it (a fresh pool does not bring that back, so it is the
// Node process warming up), which a running shop is past and pgbench, in C, never has.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { PostgresEventStore, createPool, startEmbeddedPostgres } from '../src/index';

const EVENTS = Number(process.env.EVENTS ?? 8000);
const WRITERS = Number(process.env.WRITERS ?? 8);
const PGBENCH_SECONDS = Number(process.env.PGBENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 1);
const meta = { actorId: 'bench', actorRole: 'System', correlationId: 'bench', causationId: null, at: new Date().toISOString() };

const dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-bench-'));
const server = process.env.TEST_DATABASE_URL ? null : await startEmbeddedPostgres(dir);
const serverUrl = process.env.TEST_DATABASE_URL ?? server!.url;
const dbName = `tvshop_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${dbName}`);
const url = new URL(serverUrl);
url.pathname = `/${dbName}`;
const pool = createPool(url.toString(), WRITERS + 4);
await PostgresEventStore.migrate(pool);
const store = new PostgresEventStore(pool);

/** WRITERS writers append single events to 50 streams each, `any` version; appends/s and latencies. */
async function appendLoad(target: PostgresEventStore, label: string) {
  const per = Math.ceil(EVENTS / WRITERS);
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; i < per; i++) {
        const s = performance.now();
        await target.append(`${label}-${w}-${i % 50}`, [{ eventId: randomUUID(), type: 'Benched', data: { w, i }, metadata: meta }], 'any');
        latencies.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return { count: latencies.length, secs, rate: latencies.length / secs, p50: pct(50), p95: pct(95), p99: pct(99) };
}

/** pgbench's commit rate for WRITERS clients each committing a one-row insert, or null without pgbench. */
async function pgbenchCeiling(): Promise<number | null> {
  let bin = process.env.PGBENCH;
  if (!bin) {
    const root = '/usr/lib/postgresql';
    const versions = existsSync(root) ? (await readdir(root)).sort((a, b) => Number(b) - Number(a)) : [];
    bin = versions.map((v) => path.join(root, v, 'bin', 'pgbench')).find((p) => existsSync(p));
  }
  if (!bin) return null;
  await pool.query('create table if not exists bench_commit (id bigint generated always as identity primary key, v integer not null)');
  const script = path.join(dir, 'commit.sql');
  await writeFile(script, 'insert into bench_commit (v) values (1);\n');
  const { stdout } = await promisify(execFile)(bin, [
    '-n',
    '-c',
    String(WRITERS),
    '-j',
    String(Math.min(WRITERS, os.cpus().length)),
    '-T',
    String(PGBENCH_SECONDS),
    '-f',
    script,
    url.toString(),
  ]);
  const tps = stdout.match(/tps = ([\d.]+)/);
  return tps ? Number(tps[1]) : null;
}

// Interleaved rounds, so that other work on the machine weighs on all three alike.
type Load = Awaited<ReturnType<typeof appendLoad>>;
const rounds: { grouped: Load; alone: Load; ceiling: number | null; perCommit: number }[] = [];
const single = new PostgresEventStore(pool, { maxGroupAppends: 1 });
for (let r = 0; r < WARMUP; r++) {
  const grouped = await appendLoad(store, `warm${r}`);
  const alone = await appendLoad(single, `warmalone${r}`);
  console.log(
    `warm-up round ${r + 1} (not counted): group commit ${grouped.rate.toFixed(0)}/s (p99 ${grouped.p99.toFixed(1)} ms), one per transaction ${alone.rate.toFixed(0)}/s`,
  );
}
for (let r = 0; r < ROUNDS; r++) {
  const grouped = await appendLoad(store, `bench${r}`);
  const alone = await appendLoad(single, `alone${r}`);
  // Events of one transaction share xmin: how many appends each group carried.
  const { rows } = await pool.query<{ per: number }>(
    `select count(*)::float8 / count(distinct xmin::text) as per from es.events where stream_id like $1`,
    [`bench${r}-%`],
  );
  rounds.push({ grouped, alone, ceiling: await pgbenchCeiling(), perCommit: rows[0]!.per });
}
await single.close();

let seen = 0;
const t1 = performance.now();
const sub = store.subscribe({ from: 0, batchSize: 500, onBatch: async (b) => void (seen += b.events.length) });
await sub.caughtUp();
const readSecs = (performance.now() - t1) / 1000;
await sub.stop();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary = (pick: (r: (typeof rounds)[number]) => Load) => {
  const runs = rounds.map(pick);
  const rate = median(runs.map((x) => x.rate));
  return (
    `${runs[0]!.count} single-event appends by ${WRITERS} writers: median ${rate.toFixed(0)}/s (rounds: ${runs.map((x) => x.rate.toFixed(0)).join(', ')}); ` +
    `latency ms median p50 ${median(runs.map((x) => x.p50)).toFixed(1)}  p95 ${median(runs.map((x) => x.p95)).toFixed(1)}  p99 ${median(runs.map((x) => x.p99)).toFixed(1)}`
  );
};
console.log(
  `appends (group commit): ${summary((r) => r.grouped)}; appends per commit: median ${median(rounds.map((r) => r.perCommit)).toFixed(1)}`,
);
console.log(`appends one per transaction (maxGroupAppends 1): ${summary((r) => r.alone)}`);
const ceilings = rounds.map((r) => r.ceiling).filter((c): c is number => c !== null);
console.log(
  ceilings.length === 0
    ? 'pgbench: not found (set PGBENCH=path): no commit ceiling measured'
    : `pgbench, ${WRITERS} clients, one-row insert per commit: median ${median(ceilings).toFixed(0)} tps (rounds: ${ceilings.map((c) => c.toFixed(0)).join(', ')}); ` +
        `group-commit appends / pgbench: median ${median(rounds.map((r) => r.grouped.rate / (r.ceiling ?? NaN)).filter((x) => !Number.isNaN(x))).toFixed(2)}x`,
);
console.log(`catch-up read: ${seen} events in ${readSecs.toFixed(2)} s = ${(seen / readSecs).toFixed(0)}/s`);
console.log(`memory: rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB`);

await store.close();
await pool.end();
await admin.query(`drop database ${dbName} with (force)`);
await admin.end();
await server?.stop();
await rm(dir, { recursive: true, force: true });
