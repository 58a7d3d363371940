/* global process, console, fetch, AbortSignal, setInterval, clearInterval */
// The partition test's write load, run on the machine or inside a network namespace (`ip netns
// exec`), so that it reaches a gateway the machine itself cannot reach while the link is cut.
//
//   node load.mjs write <gateway-url> <token> <label> <every-ms>
//       lists a product every <every-ms> without waiting for the previous answer (a write that
//       hangs does not slow the load), until a line `stop` on stdin; then waits for the writes in
//       flight and exits. One JSON line per answer on stdout:
//       { "name", "t0" (epoch ms sent), "ms", "status" (0: no answer), "id", "contentType", "error" }
//   node load.mjs list <gateway-url>
//       one JSON line: the ids of /api/all_products, or { "error" }.
// Each request gives up after 60 s (status 0): the test's bound on an answer is far below that.
import { createInterface } from 'node:readline';

const [mode, base, ...rest] = process.argv.slice(2);
const out = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

if (mode === 'list') {
  try {
    const res = await fetch(`${base}/api/all_products`, { signal: AbortSignal.timeout(20_000) });
    const all = await res.json();
    out({ status: res.status, ids: Array.isArray(all) ? all.map((p) => p._id) : [] });
  } catch (err) {
    out({ error: err instanceof Error ? err.message : String(err) });
  }
} else if (mode === 'write') {
  const [token, label, every] = rest;
  const inFlight = new Set();
  let n = 0;
  const one = async () => {
    const name = `${label} ${++n}`;
    const t0 = Date.now();
    try {
      const res = await fetch(`${base}/api/products`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          porduct_name: name,
          productImage: 'https://example.com/tv.png',
          details: 'Bright panel, remote included',
          location: 'Dhaka',
          resale_price: 25000,
          orginal_price: 52000,
          use_duration: '2 years',
          phone_number: '01711111111',
          product_condition: 'Good',
          category_id: 'samsung',
        }),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      let body = null;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: reported by its content type.
      }
      out({
        name,
        t0,
        ms: Date.now() - t0,
        status: res.status,
        id: body?.insertedId ?? null,
        contentType: res.headers.get('content-type'),
      });
    } catch (err) {
      out({ name, t0, ms: Date.now() - t0, status: 0, id: null, error: err instanceof Error ? err.message : String(err) });
    }
  };
  const timer = setInterval(() => {
    const p = one();
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }, Number(every));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    await Promise.all([...inFlight]);
    process.exit(0);
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'stop') void stop();
  });
  // The parent went away: stop sending, and exit once the writes in flight are answered (60 s at most).
  process.stdin.on('end', () => void stop());
} else {
  console.error('usage: node load.mjs write <gateway-url> <token> <label> <every-ms> | list <gateway-url>');
  process.exit(2);
}
