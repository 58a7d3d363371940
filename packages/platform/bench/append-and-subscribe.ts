// Prints how fast the PostgreSQL event store appends with concurrent writers and how fast a
// catch-up subscription reads. Uses TEST_DATABASE_URL's server if set, else an embedded one.
//   npm run bench            (EVENTS=4000 WRITERS=8 to change the load)
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PostgresEventStore, createPool, startEmbeddedPostgres } from '../src/index';

const EVENTS = Number(process.env.EVENTS ?? 4000);
const WRITERS = Number(process.env.WRITERS ?? 8);
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

const per = Math.ceil(EVENTS / WRITERS);
const latencies: number[] = [];
const t0 = performance.now();
await Promise.all(
  Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; i < per; i++) {
      const s = performance.now();
      await store.append(`bench-${w}-${i % 50}`, [{ eventId: randomUUID(), type: 'Benched', data: { w, i }, metadata: meta }], 'any');
      latencies.push(performance.now() - s);
    }
  }),
);
const appendSecs = (performance.now() - t0) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);

let seen = 0;
const t1 = performance.now();
const sub = store.subscribe({ from: 0, batchSize: 500, onBatch: async (b) => void (seen += b.events.length) });
await sub.caughtUp();
const readSecs = (performance.now() - t1) / 1000;
await sub.stop();

console.log(
  `appends: ${latencies.length} single-event appends by ${WRITERS} writers in ${appendSecs.toFixed(2)} s = ${(latencies.length / appendSecs).toFixed(0)}/s`,
);
console.log(`append latency ms: p50 ${pct(50)}  p95 ${pct(95)}  p99 ${pct(99)}`);
console.log(`catch-up read: ${seen} events in ${readSecs.toFixed(2)} s = ${(seen / readSecs).toFixed(0)}/s`);
console.log(`memory: rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB`);

await store.close();
await pool.end();
await admin.query(`drop database ${dbName} with (force)`);
await admin.end();
await server?.stop();
await rm(dir, { recursive: true, force: true });
