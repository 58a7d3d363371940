// Live pushes to many browsers (issue 17, ADR 0045). TV Shop runs in its own process (serve.ts,
// the whole shop in one process) on a fresh database; a load process, separate from it and from
// the writer, opens N Socket.IO sockets that subscribe as the web app does: about half on All
// Products, half on one category page (sony), a few on one product's page, and a few signed-in
// sellers (their account and their listings) and buyers (their account and All Products). This
// process writes new listings open-loop (and a booking now and then) at each rate and prints, for
// each N and rate: push p50/p99 (from the write's send to its arrival, every delivery counted),
// write p50/p99, what was delivered of what each socket's views should get, messages and pushes
// per second, pushes outside a socket's views (must be 0), and the server process's CPU and RSS.
// GATEWAYS=2: the shop is a projector process (`npm run projector -- run`) and two gateways
// (PROJECTOR=external) joined by Redis on a channel of this run, as several-gateways.int.test.ts
// runs them; the sockets are spread evenly over the gateways, each half with the same mix of
// views, and the writes go through each in turn, so that each socket hears of listings written
// through the other gateway; CPU and RSS are printed for each of the three processes and their sum.
//   npm run bench:fanout          (PLAN=100:10,100:50,1000:10,1000:50,5000:10, sockets:writes/s;
//                                  SECONDS=20; VIEWS=0 for sockets that never subscribe to views,
//                                  as the spec's client; GATEWAYS=1 or 2; REDIS_URL for GATEWAYS=2,
//                                  redis://127.0.0.1:6379 when unset; ROUNDS=3 runs the plan three
//                                  times, interleaved, and prints each step's median p99s and the
//                                  write p99 as a multiple of the fewest sockets' at the same rate;
//                                  SPLIT=1 with GATEWAYS=2 puts every socket on gateway B and sends
//                                  every write through gateway A: pushes on a tier of their own;
//                                  CLIENT=socket.io for visitors on socket.io-client rather than
//                                  lean-socket.ts; DECODE=each for lean-socket.ts decoding every
//                                  copy of a packet many sockets got alike, not once (see there);
//                                  LOAD_NICE, 19 unless set, see below)
// The load process is the visitors' browsers, which would be on machines of their own: it runs in
// a session of its own (so the kernel schedules it as its own autogroup, apart from the server and
// from this process, which times the answers) and that autogroup's nice is LOAD_NICE, so that it
// takes the CPU the shop and PostgreSQL leave (what applies is printed, read back from /proc).
// LOAD_NICE=0 shares the cores evenly with them, as before. Pushes are timed on the load
// process's clock when it gets to them, so they include any wait it had for a core; a push that
// never came, or a write that failed, counts as the slowest there is in the percentiles.
// Time is wall-clock (performance.timeOrigin + now) on both sides: one machine, one clock.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect } from 'socket.io-client';
import { productInView, type ChangePush, type Product, type View } from '@tv-shop/contracts';
import { usage } from './cpu';
import { LeanSocket } from './lean-socket';
import { median, percentile, scratchDatabase, startProjectorProcess, startTvShop, type Child, type ChildServer } from './processes';

const now = () => performance.timeOrigin + performance.now();
const CATEGORIES = ['sony', 'samsung', 'lg', 'walton', 'xiaomi'];
/** The category page half the visitors are on. */
const WATCHED = 'sony';

interface Account {
  id: string;
  email: string;
  token: string;
  role: 'Seller' | 'Buyer';
}
/** What the load process is told about each write, to tell what each socket should have had. */
interface Sent {
  id: string;
  at: number;
  category: string;
  sellerId: string;
}
interface LoadReport {
  sockets: number;
  deliveries: number;
  expected: number;
  delivered: number;
  messages: number;
  irrelevant: number;
  forbidden: number;
  latencies: number[];
  disconnects: number;
}
type FromLoad = { type: 'ready'; connected: number; ms: number } | { type: 'started' } | { type: 'report'; report: LoadReport };
type ToLoad = { type: 'start' } | { type: 'stop'; sent: Sent[] } | { type: 'exit' };

/** The visitors: N sockets subscribing like the web app, counting what they get. */
async function loadProcess() {
  const urls = process.env.BENCH_URLS!.split(',');
  const n = Number(process.env.BENCH_SOCKETS);
  const useViews = process.env.VIEWS !== '0';
  const accounts = JSON.parse(process.env.BENCH_ACCOUNTS!) as Account[];
  const productPage = process.env.BENCH_PRODUCT!;
  const productSeller = process.env.BENCH_PRODUCT_SELLER!;
  const leanClient = process.env.CLIENT !== 'socket.io';
  const split = process.env.BENCH_SPLIT === '1';
  const send = (m: FromLoad) => process.send!(m);
  // In a session of its own, it would outlive a bench process that was killed: it goes with it.
  process.once('disconnect', () => process.exit(0));
  if (!process.connected) process.exit(0);

  interface Visitor {
    socket: Pick<LeanSocket, 'connected' | 'disconnect'>;
    views: View[];
    account: Account | null;
    /** Product id → when it first arrived. */
    arrived: Map<string, number>;
    irrelevant: number;
    forbidden: number;
    messages: number;
    pushes: number;
    disconnects: number;
  }
  const visitors: Visitor[] = [];
  const plan = (i: number): { views: View[]; account: Account | null } => {
    if (i < accounts.length) {
      const a = accounts[i]!;
      return a.role === 'Seller'
        ? {
            account: a,
            views: [
              { kind: 'account', userId: a.id },
              { kind: 'seller', id: a.id },
            ],
          }
        : {
            account: a,
            views: [
              { kind: 'account', userId: a.id },
              { kind: 'products', filter: { sold: 'false' } },
            ],
          };
    }
    // A product page hears its product and its seller's listings (the count of their TVs for sale).
    if (i % 50 === 7)
      return {
        account: null,
        views: [
          { kind: 'product', id: productPage },
          { kind: 'seller', id: productSeller },
        ],
      };
    return i % 2 === 0
      ? { account: null, views: [{ kind: 'products', filter: { sold: 'false' } }] }
      : { account: null, views: [{ kind: 'products', filter: { category: WATCHED, sold: 'false' } }] };
  };
  /** Whether a push belongs to one of the views the visitor's page shows. */
  const relevant = (v: Visitor, p: ChangePush): boolean => {
    if (p.entity === 'product') {
      // Judged against the page's views also for a socket that never told the server (VIEWS=0): what it throws away.
      if (p.op === 'remove') return v.views.some((x) => x.kind !== 'account');
      return v.views.some((x) => productInView(x, p.row));
    }
    if (p.entity === 'booking') {
      const email = v.account?.email.toLowerCase();
      return p.op === 'upsert' && !!email && (p.row.email.toLowerCase() === email || p.row.seller_email.toLowerCase() === email);
    }
    if (p.entity === 'user') return !!v.account && p.id === v.account.id;
    return false;
  };
  const take = (v: Visitor, p: ChangePush) => {
    v.pushes += 1;
    if (!relevant(v, p)) v.irrelevant += 1;
    // A visitor's socket must never hear of a booking or an account.
    if (!v.account && (p.entity === 'booking' || p.entity === 'user')) v.forbidden += 1;
    if (p.entity === 'product' && p.op === 'upsert' && !v.arrived.has(p.id)) v.arrived.set(p.id, now());
  };

  const t0 = now();
  for (let i = 0; i < n; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, n - i) }, async (_, j) => {
        // Socket k is on gateway k % gateways, each with the mix of views its share would have on one.
        const k = i + j;
        const { views, account } = plan(Math.floor(k / urls.length));
        const url = split ? urls[1]! : urls[k % urls.length]!;
        const auth = account ? { token: account.token } : {};
        const socket = leanClient
          ? await LeanSocket.connect(url, auth)
          : connect(url, { path: '/socket.io', transports: ['websocket'], auth, reconnection: false });
        const v: Visitor = {
          socket,
          views,
          account,
          arrived: new Map(),
          irrelevant: 0,
          forbidden: 0,
          messages: 0,
          pushes: 0,
          disconnects: 0,
        };
        // The two clients take the same handlers; socket.io-client's types are the contracts'.
        const on = socket.on.bind(socket) as (event: string, handler: (...args: never[]) => void) => void;
        on('change', (p: ChangePush) => {
          v.messages += 1;
          take(v, p);
        });
        on('changes', (batch: ChangePush[]) => {
          v.messages += 1;
          for (const p of batch) take(v, p);
        });
        on('disconnect', () => (v.disconnects += 1));
        if (!(socket instanceof LeanSocket)) {
          await new Promise<void>((resolve, reject) => {
            socket.once('connect', () => resolve());
            socket.once('connect_error', reject);
          });
        }
        const emit = socket.emit.bind(socket) as (event: string, ...args: unknown[]) => void;
        if (useViews) await new Promise((resolve) => emit('views', views, resolve));
        visitors.push(v);
      }),
    );
  }
  send({ type: 'ready', connected: visitors.filter((v) => v.socket.connected).length, ms: now() - t0 });

  process.on('message', (m: ToLoad) => {
    if (m.type === 'start') {
      for (const v of visitors) {
        v.arrived.clear();
        v.irrelevant = v.forbidden = v.messages = v.pushes = v.disconnects = 0;
      }
      // The writes start only once the counts are clear: nothing of them is wiped.
      send({ type: 'started' });
      return;
    }
    if (m.type === 'exit') {
      for (const v of visitors) v.socket.disconnect();
      process.exit(0);
    }
    const report: LoadReport = {
      sockets: visitors.length,
      deliveries: 0,
      expected: 0,
      delivered: 0,
      messages: 0,
      irrelevant: 0,
      forbidden: 0,
      latencies: [],
      disconnects: 0,
    };
    for (const v of visitors) {
      report.deliveries += v.pushes;
      report.messages += v.messages;
      report.irrelevant += v.irrelevant;
      report.forbidden += v.forbidden;
      report.disconnects += v.disconnects;
      for (const s of m.sent) {
        const shape = {
          _id: s.id,
          category_id: s.category,
          sellerId: s.sellerId,
          sold: false,
          advertised: false,
          resale_price: 1000,
        };
        const shouldGet = !useViews || v.views.some((x) => productInView(x, shape as Product));
        if (!shouldGet) continue;
        report.expected += 1;
        const at = v.arrived.get(s.id);
        if (at === undefined) continue;
        report.delivered += 1;
        report.latencies.push(at - s.at);
      }
    }
    send({ type: 'report', report });
  });
}

/**
 * Sets the autogroup nice of the load process's session (Linux: `/proc/<pid>/autogroup`) and
 * says what applies, read back: the kernel may not group by session at all, and then the load
 * process shares the cores evenly with the shop whatever was written.
 */
function deprioritise(pid: number, nice: string): string {
  try {
    if (readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() !== '1')
      return 'shares the cores evenly (the kernel does not group by session: sched_autogroup_enabled is 0)';
    writeFileSync(`/proc/${pid}/autogroup`, nice);
    const applied = /nice\s+(-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))?.[1];
    return `runs in its own autogroup at nice ${applied ?? '?'}`;
  } catch (err) {
    return `keeps its priority (LOAD_NICE=${nice} not applied: ${(err as Error).message})`;
  }
}

async function main() {
  const PLAN = (process.env.PLAN ?? '100:10,100:50,1000:10,1000:50,5000:10').split(',').map((step) => step.split(':').map(Number));
  const SOCKETS = [...new Set(PLAN.map(([n]) => n!))];
  const ratesFor = (n: number) => PLAN.filter(([m]) => m === n).map(([, rate]) => rate!);
  const SECONDS = Number(process.env.SECONDS ?? 20);
  const ROUNDS = Number(process.env.ROUNDS ?? 1);
  if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`ROUNDS is a whole number from 1, not ${process.env.ROUNDS}`);
  /** Per step (sockets:rate), each round's push and write p99, for the medians printed last. */
  const results = new Map<string, { push: number[]; write: number[]; delivered: number; expected: number; ok: number; writes: number }>();
  const useViews = process.env.VIEWS !== '0';
  const GATEWAYS = Number(process.env.GATEWAYS ?? 1);
  if (GATEWAYS !== 1 && GATEWAYS !== 2) throw new Error(`GATEWAYS is 1 or 2, not ${process.env.GATEWAYS}`);
  const SPLIT = process.env.SPLIT === '1';
  if (SPLIT && GATEWAYS !== 2) throw new Error('SPLIT=1 needs GATEWAYS=2');
  const LOAD_NICE = process.env.LOAD_NICE ?? '19';
  const db = await scratchDatabase('tvshop_fanout');
  const gateways: ChildServer[] = [];
  let projector: Child | undefined;
  let load: ChildProcess | undefined;
  const cleanUp = async () => {
    if (load && load.exitCode === null) load.kill('SIGKILL');
    for (const gateway of gateways) await gateway.stop().catch(() => {});
    await projector?.stop().catch(() => {});
    await db.drop().catch((err: unknown) => console.error(`could not drop ${db.name}:`, err));
  };
  process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

  try {
    // Every bench socket comes from 127.0.0.1: one address may then hold them all, and send all their views (ADR 0072).
    const oneAddress = { SOCKETS_PER_CLIENT: '100000', VIEWS_CALLS_PER_CLIENT_PER_MINUTE: '10000000' };
    if (GATEWAYS === 1) gateways.push(await startTvShop(db.url, 'fanout', oneAddress));
    else {
      const redis = { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', channel: `tvshop:bench:${randomBytes(6).toString('hex')}` };
      // First: a gateway's start waits until the projections have taken in the admin it registers.
      projector = await startProjectorProcess(db.url, redis);
      // As in several-gateways.int.test.ts: one token secret (a token from one gateway is good on the
      // other), images in the database; and one admin password, else each start changes it.
      const settings = {
        REDIS_URL: redis.url,
        REDIS_CHANNEL: redis.channel,
        PROJECTOR: 'external',
        JWT_SECRET: randomBytes(24).toString('base64url'),
        ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
        IMAGE_STORE: 'postgres',
        ...oneAddress,
      };
      // One after the other: the first registers the admin, the second finds it there.
      for (const name of ['A', 'B']) gateways.push(await startTvShop(db.url, `fanout-${name}`, settings, `gateway ${name}`));
    }
    /** The shop's processes, whose CPU and RSS are printed. */
    const measured =
      GATEWAYS === 1
        ? [{ label: 'server', pid: gateways[0]!.pid }]
        : [...gateways.map((g, i) => ({ label: `gateway ${'AB'[i]}`, pid: g.pid })), { label: 'projector', pid: projector!.pid }];
    const { url } = gateways[0]!;
    const signup = async (role: 'Seller' | 'Buyer', i: number): Promise<Account> => {
      const email = `fanout-${role.toLowerCase()}${i}-${Date.now()}@x.co`;
      const res = await fetch(`${url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Bench ${role} ${i}`, email, password: 'secret-pass', role }),
      });
      if (!res.ok) throw new Error(`signup answered ${res.status}`);
      const body = (await res.json()) as { token: string; user: { _id: string } };
      return { id: body.user._id, email, token: body.token, role };
    };
    const sellers = await Promise.all([0, 1, 2, 3].map((i) => signup('Seller', i)));
    const buyers = await Promise.all([0, 1, 2, 3].map((i) => signup('Buyer', i)));
    const accounts = [...sellers, ...buyers];

    let serial = 0;
    const listing = (i: number) => ({
      porduct_name: `Fanout TV ${i}`,
      productImage: 'https://example.com/tv.png',
      details: 'A TV for the fan-out benchmark',
      location: 'Dhaka',
      resale_price: 1000,
      orginal_price: 5000,
      use_duration: '2 years',
      phone_number: '01700000000',
      product_condition: 'Good',
      category_id: CATEGORIES[i % CATEGORIES.length],
    });
    interface Write {
      scheduled: number;
      sentAt: number;
      answered?: number;
      ok?: boolean;
      sent?: Sent;
    }
    const write = async (w: Write, i: number) => {
      const seller = sellers[i % sellers.length]!;
      // Through each gateway in turn; the booking of a listing goes where the listing went.
      const { url } = gateways[SPLIT ? 0 : i % gateways.length]!;
      const body = listing(i);
      try {
        w.sentAt = now();
        const res = await fetch(`${url}/api/products`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${seller.token}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const answer = (await res.json().catch(() => ({}))) as { insertedId?: string };
        w.answered = now();
        w.ok = res.status === 201 && !!answer.insertedId;
        if (w.ok) w.sent = { id: answer.insertedId!, at: w.sentAt, category: body.category_id!, sellerId: seller.id };
        // Now and then a buyer books it: the buyer's and the seller's accounts hear of it, nobody else.
        if (w.ok && i % 25 === 3) {
          const buyer = buyers[i % buyers.length]!;
          await fetch(`${url}/api/bookings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` },
            body: JSON.stringify({ product_id: answer.insertedId, phone_number: '01800000000', meeting_location: 'Mirpur 10' }),
          });
        }
      } catch {
        w.answered = now();
        w.ok = false;
      }
    };
    const hold = async (rate: number, seconds: number) => {
      const count = Math.round(rate * seconds);
      const interval = 1000 / rate;
      const t0 = now() + 20;
      const writes: Write[] = [];
      const pending: Promise<void>[] = [];
      for (let i = 0; i < count;) {
        const t = now();
        while (i < count && t0 + i * interval <= t) {
          const w: Write = { scheduled: t0 + i * interval, sentAt: t };
          writes.push(w);
          pending.push(write(w, serial++));
          i++;
        }
        if (i < count) await sleep(Math.max(0, t0 + i * interval - now()));
      }
      await Promise.all(pending);
      return writes;
    };

    // One listing for the product page's visitors, and a warm-up.
    await hold(10, 1);
    const first = await fetch(`${url}/api/all_products`).then((r) => r.json() as Promise<Product[]>);

    const f = (ms: number) => (Number.isNaN(ms) ? '-' : ms === Infinity ? 'never' : ms.toFixed(0));
    console.log(
      `bench:fanout: ${new Date().toISOString()}, ${GATEWAYS === 2 ? `2 gateways + projector over Redis${SPLIT ? ' (sockets on B, writes through A)' : ''}, ` : ''}${useViews ? 'sockets subscribe to views' : 'sockets never subscribe (the default rooms)'}, ` +
        `${SECONDS} s a rate, open-loop new listings over ${CATEGORIES.length} categories; half on All Products, half on the ${WATCHED} page; ` +
        `visitors on ${process.env.CLIENT === 'socket.io' ? 'socket.io-client' : `lean-socket.ts (DECODE=${process.env.DECODE === 'each' ? 'each' : 'once'})`}, LOAD_NICE=${LOAD_NICE}`,
    );
    // Round after round, every step once in each, in turn A B, then B A, ...: a moment's noise on
    // the machine lands on one round of a step, not on all of it, the log's growth through the
    // run favours no size, and the medians say what holds.
    for (let round = 1; round <= ROUNDS; round++) {
      if (ROUNDS > 1) console.log(`round ${round} of ${ROUNDS}`);
      for (const n of round % 2 === 1 ? SOCKETS : [...SOCKETS].reverse()) {
        load = fork(import.meta.filename, ['--load'], {
          execArgv: ['--import', 'tsx'],
          // A session of its own, so the kernel schedules it apart from the server and the writer
          // (its own autogroup), as the visitors' browsers would be on machines of their own:
          // otherwise its CPU is taken from the same share as the writer that times the answers.
          detached: true,
          env: {
            ...process.env,
            BENCH_URLS: gateways.map((g) => g.url).join(','),
            BENCH_SOCKETS: String(n),
            BENCH_ACCOUNTS: JSON.stringify(accounts),
            BENCH_PRODUCT: first[0]!._id,
            BENCH_PRODUCT_SELLER: first[0]!.sellerId,
            BENCH_SPLIT: SPLIT ? '1' : '0',
          },
        });
        const child = load;
        const priority = deprioritise(child.pid!, LOAD_NICE);
        // The load process's next message; its death (a socket that could not connect) ends the run instead of hanging it.
        const next = () =>
          new Promise<FromLoad>((resolve, reject) => {
            const exited = (code: number | null) => reject(new Error(`the load process exited (${code})`));
            child.once('exit', exited);
            child.once('message', (m: FromLoad) => {
              child.off('exit', exited);
              resolve(m);
            });
          });
        const ready = await next();
        if (ready.type !== 'ready') throw new Error('load process did not get ready');
        console.log(`${n} sockets: ${ready.connected} connected in ${(ready.ms / 1000).toFixed(1)} s; the load process ${priority}`);
        await sleep(1000);
        for (const rate of ratesFor(n)) {
          const begun = next();
          child.send({ type: 'start' } satisfies ToLoad);
          if ((await begun).type !== 'started') throw new Error('load process did not start');
          await sleep(200);
          const before = measured.map((m) => usage(m.pid));
          const loadBefore = usage(child.pid!);
          const started = now();
          const writes = await hold(rate, SECONDS);
          await sleep(2000);
          const elapsed = (now() - started) / 1000;
          const after = measured.map((m) => usage(m.pid));
          const loadAfter = usage(child.pid!);
          const reported = next();
          child.send({ type: 'stop', sent: writes.flatMap((w) => (w.sent ? [w.sent] : [])) } satisfies ToLoad);
          const m = await reported;
          if (m.type !== 'report') throw new Error('load process did not report');
          const r = m.report;
          // A push that never came, or a write that failed, counts as the slowest there is: it never leaves the percentiles.
          const pushes = [...r.latencies, ...Array<number>(r.expected - r.delivered).fill(Infinity)];
          const answers = writes.map((w) => (w.ok ? w.answered! - w.scheduled : Infinity));
          const ok = writes.filter((w) => w.ok).length;
          const step = `${n}:${rate}`;
          if (!results.has(step)) results.set(step, { push: [], write: [], delivered: 0, expected: 0, ok: 0, writes: 0 });
          const result = results.get(step)!;
          result.push.push(percentile(pushes, 99));
          result.write.push(percentile(answers, 99));
          result.delivered += r.delivered;
          result.expected += r.expected;
          result.ok += ok;
          result.writes += writes.length;
          const cpu = (i: number) => ((after[i]!.cpu - before[i]!.cpu) / elapsed) * 100;
          const servers = measured.map(
            (m, i) => `${m.label} CPU ${cpu(i).toFixed(0)}%, RSS ${after[i]!.rssMb.toFixed(0)} MB (peak ${after[i]!.peakMb.toFixed(0)})`,
          );
          if (measured.length > 1) {
            const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0).toFixed(0);
            servers.push(`sum CPU ${total(measured.map((_, i) => cpu(i)))}%, RSS ${total(after.map((a) => a.rssMb))} MB`);
          }
          console.log(
            `  ${String(n).padStart(5)} sockets ${String(rate).padStart(3)} writes/s: ` +
              `push p50 ${f(percentile(pushes, 50))} p99 ${f(percentile(pushes, 99))} ms | ` +
              `write p50 ${f(percentile(answers, 50))} p99 ${f(percentile(answers, 99))} ms (${ok}/${writes.length} ok) | ` +
              `delivered ${r.delivered}/${r.expected} | ${(r.messages / elapsed).toFixed(0)} messages/s, ${(r.deliveries / elapsed).toFixed(0)} pushes/s | ` +
              `outside views ${(r.irrelevant / r.sockets).toFixed(2)}/socket, visitor got booking/user ${r.forbidden} | ` +
              `${servers.join('; ')} | ` +
              `${r.disconnects} dropped | load process CPU ${(((loadAfter.cpu - loadBefore.cpu) / elapsed) * 100).toFixed(0)}%, ` +
              `machine load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
          );
          await sleep(1000);
        }
        child.send({ type: 'exit' } satisfies ToLoad);
        await new Promise((resolve) => child.once('exit', resolve));
        load = undefined;
        await sleep(2000);
      }
    }
    if (ROUNDS > 1) {
      // The write p99 at each size beside the smallest size's at the same rate: what more sockets cost a write.
      console.log(`medians over ${ROUNDS} rounds (p99 in ms):`);
      for (const [step, { push, write, delivered, expected, ok, writes }] of results) {
        const [n, rate] = step.split(':').map(Number);
        const base = results.get(`${Math.min(...PLAN.filter(([, r]) => r === rate).map(([m]) => m!))}:${rate}`)!;
        const ratio = median(write) / median(base.write);
        console.log(
          `  ${String(n).padStart(5)} sockets ${String(rate).padStart(3)} writes/s: push p99 ${f(median(push))} (${push.map(f).join(', ')}) | ` +
            `write p99 ${f(median(write))} (${write.map(f).join(', ')}), ${ratio.toFixed(2)}x its figure at the fewest sockets | ` +
            `delivered ${delivered}/${expected}, writes ${ok}/${writes} ok`,
        );
      }
    }
  } finally {
    await cleanUp();
  }
}

if (process.argv.includes('--load')) await loadProcess();
else await main();
