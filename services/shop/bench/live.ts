// TV Shop under an open-loop write load: each rate is held for SECONDS, a write (POST
// /api/products by a seller) is started on its schedule whether or not earlier ones have been
// answered, and one Socket.IO client listens. Latencies count from the write's scheduled start,
// so a server (or a load generator) that falls behind shows up in them instead of slowing the load.
//   npm run bench:live        (RATES=50,100,200 SECONDS=30; SERVER_URL for another PostgreSQL server)
// TV Shop runs in its own process (serve.ts, one-process startAll) on a fresh database of that
// server, which is dropped after.
import type { ClientToServerEvents, ServerToClientEvents } from '@tv-shop/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect, type Socket } from 'socket.io-client';
import { percentile, scratchDatabase, signUpSeller, startTvShop, tvListing } from './processes';

const RATES = (process.env.RATES ?? '50,100,200').split(',').map(Number);
const SECONDS = Number(process.env.SECONDS ?? 30);
/** A write not answered by then counts as failed. */
const WRITE_TIMEOUT_MS = 30_000;
/** How long after the last answer a push may still arrive. */
const PUSH_GRACE_MS = 3_000;

interface Write {
  scheduled: number;
  started: number;
  answered?: number;
  status?: number;
  id?: string;
  error?: string;
}

const db = await scratchDatabase('tvshop_live');
let server: Awaited<ReturnType<typeof startTvShop>> | undefined;
let socket: Socket<ServerToClientEvents, ClientToServerEvents> | undefined;
const cleanUp = async () => {
  socket?.disconnect();
  await server?.stop().catch(() => {});
  await db.drop().catch((err: unknown) => console.error(`could not drop ${db.name}:`, err));
};
process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

try {
  server = await startTvShop(db.url, 'live');
  const { url } = server;
  const token = await signUpSeller(url);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };

  socket = connect(url, { path: '/socket.io', transports: ['websocket'] });
  await new Promise<void>((resolve, reject) => {
    socket!.once('connect', () => resolve());
    socket!.once('connect_error', reject);
  });
  const pushAt = new Map<string, number>();
  socket.on('change', (p) => {
    if (p.entity === 'product' && !pushAt.has(p.id)) pushAt.set(p.id, performance.now());
  });

  let serial = 0;
  const write = async (w: Write) => {
    try {
      const res = await fetch(`${url}/api/products`, {
        method: 'POST',
        headers,
        body: tvListing(serial++),
        signal: AbortSignal.timeout(WRITE_TIMEOUT_MS),
      });
      const body = (await res.json().catch(() => ({}))) as { insertedId?: string };
      w.answered = performance.now();
      w.status = res.status;
      if (body.insertedId) w.id = body.insertedId;
    } catch (err) {
      w.answered = performance.now();
      w.error = err instanceof Error ? err.name : String(err);
    }
  };

  /** Starts `rate * seconds` writes on schedule (open loop) and waits for all of them. */
  const hold = async (rate: number, seconds: number): Promise<{ writes: Write[]; t0: number }> => {
    const n = Math.round(rate * seconds);
    const interval = 1000 / rate;
    const t0 = performance.now() + 20;
    const writes: Write[] = [];
    const pending: Promise<void>[] = [];
    let i = 0;
    while (i < n) {
      const now = performance.now();
      while (i < n && t0 + i * interval <= now) {
        const w: Write = { scheduled: t0 + i * interval, started: now };
        writes.push(w);
        pending.push(write(w));
        i++;
      }
      if (i < n) await sleep(Math.max(0, t0 + i * interval - performance.now()));
    }
    await Promise.all(pending);
    return { writes, t0 };
  };

  // Warm-up, not counted: the JIT, the pools and the caches.
  await hold(20, 2);
  await sleep(1000);

  const f = (ms: number) => (Number.isNaN(ms) ? '-' : ms.toFixed(0));
  console.log(`open-loop POST /api/products, ${SECONDS} s a rate, one Socket.IO client listening; ms from each write's scheduled start`);
  for (const rate of RATES) {
    const { writes, t0 } = await hold(rate, SECONDS);
    const lastAnswer = Math.max(...writes.map((w) => w.answered ?? 0));
    await sleep(PUSH_GRACE_MS);
    const ok = writes.filter((w) => w.status === 201 && w.id);
    const refused = writes.filter((w) => w.status === 429 || w.status === 503);
    const failed = writes.filter((w) => !ok.includes(w) && !refused.includes(w));
    /** How many of `ws` ended each way: `503: 12, 429: 3`, `TimeoutError: 2`. */
    const tally = (ws: Write[]) => {
      const counts = new Map<string, number>();
      for (const w of ws) counts.set(w.error ?? String(w.status), (counts.get(w.error ?? String(w.status)) ?? 0) + 1);
      return ws.length === 0 ? '' : ` (${[...counts].map(([k, v]) => `${k}: ${v}`).join(', ')})`;
    };
    const answers = ok.map((w) => w.answered! - w.scheduled);
    const pushes = ok.filter((w) => pushAt.has(w.id!)).map((w) => pushAt.get(w.id!)! - w.scheduled);
    const lag = Math.max(...writes.map((w) => w.started - w.scheduled));
    const achieved = ok.length / ((lastAnswer - t0) / 1000);
    console.log(
      `${String(rate).padStart(4)}/s: answer p50 ${f(percentile(answers, 50))} p99 ${f(percentile(answers, 99))} | ` +
        `push p50 ${f(percentile(pushes, 50))} p99 ${f(percentile(pushes, 99))} (${pushes.length}/${ok.length} heard) | ` +
        `${ok.length}/${writes.length} ok, ${refused.length} refused${tally(refused)}, ${failed.length} failed${tally(failed)} | achieved ${achieved.toFixed(0)}/s ` +
        `(generator late by ${lag.toFixed(0)} ms at most)`,
    );
    await sleep(2000);
  }
} finally {
  await cleanUp();
}
