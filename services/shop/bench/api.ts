// Prints what a user feels: write latency through the whole pipeline (command, append,
// projection, read-your-writes), read throughput of the busiest list, push latency, and memory.
//   npm run bench:api          (PRODUCTS=500 WRITES=200 READ_SECONDS=5 to change the load)
import { io as connect } from 'socket.io-client';
import { pct, startBenchShop } from './kit';

const PRODUCTS = Number(process.env.PRODUCTS ?? 500);
const WRITES = Number(process.env.WRITES ?? 200);
const READ_SECONDS = Number(process.env.READ_SECONDS ?? 5);
const CONCURRENCY = 8;

const shop = await startBenchShop('api');
const { api } = shop;

const signup = await (
  await api('/auth/signup', {
    method: 'POST',
    body: JSON.stringify({ name: 'Bench Seller', email: `bench${Date.now()}@x.co`, password: 'secret-pass', role: 'Seller' }),
  })
).json();
const token = (signup as { token: string }).token;
const product = (i: number) =>
  JSON.stringify({
    porduct_name: `Bench TV ${i}`,
    productImage: 'https://example.com/tv.png',
    details: 'A TV for the benchmark',
    location: 'Dhaka',
    resale_price: 1000 + i,
    orginal_price: 5000,
    use_duration: '2 years',
    phone_number: '01700000000',
    product_condition: 'Good',
    category_id: 'sony',
  });

for (let i = 0; i < PRODUCTS; i += CONCURRENCY) {
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => api('/products', { method: 'POST', body: product(i + k) }, token)));
}

const socket = connect(shop.url, { path: '/socket.io', transports: ['websocket'] });
await new Promise((r) => socket.once('connect', () => r(null)));
const pushAt = new Map<string, number>();
socket.on('change', (p: { id: string }) => pushAt.set(p.id, performance.now()));

const writes: number[] = [];
const pushes: number[] = [];
for (let i = 0; i < WRITES; i++) {
  const t0 = performance.now();
  const res = await api('/products', { method: 'POST', body: product(PRODUCTS + i) }, token);
  const { insertedId } = (await res.json()) as { insertedId: string };
  writes.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 2));
  const at = pushAt.get(insertedId);
  if (at) pushes.push(at - t0);
}

let reads = 0;
const readLatency: number[] = [];
const until = performance.now() + READ_SECONDS * 1000;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      await (await api('/all_products')).arrayBuffer();
      readLatency.push(performance.now() - t0);
      reads++;
    }
  }),
);

const listed = PRODUCTS + WRITES;
console.log(
  `write (POST /api/products, answered after read models caught up): p50 ${pct(writes, 50)} ms  p95 ${pct(writes, 95)} ms  p99 ${pct(writes, 99)} ms over ${WRITES}`,
);
console.log(
  `push to a socket after the write began: p50 ${pct(pushes, 50)} ms  p95 ${pct(pushes, 95)} ms  (${pushes.length}/${WRITES} seen)`,
);
console.log(
  `read (GET /api/all_products, ${listed} products): ${(reads / READ_SECONDS).toFixed(0)}/s with ${CONCURRENCY} clients, p50 ${pct(readLatency, 50)} ms  p95 ${pct(readLatency, 95)} ms`,
);
console.log(
  `memory: rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB, heap ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MiB (server and load in one process)`,
);

socket.disconnect();
await shop.stop();
