// Search as buyers use it, at growing catalogue sizes: listings are written through the real
// write path (POST /api/products: command, decider, append, projection), autovacuum is let
// analyse them (the planner's statistics of a catalogue are what production searches with),
// then typical searches are timed through HTTP and their p50/p99 printed at each size.
//   npm run bench:search                (STAGES=1000,10000,50000 SEARCHES=200 to change it)
import { pct, startBenchShop } from './kit';

const STAGES = (process.env.STAGES ?? '1000,10000,50000').split(',').map(Number);
const SEARCHES = Number(process.env.SEARCHES ?? 200);
const WRITERS = 16;

const shop = await startBenchShop('search');
const { api } = shop;

// Several sellers, so no single account holds the whole catalogue.
const tokens: string[] = [];
for (let s = 0; s < WRITERS; s++) {
  const res = await api('/auth/signup', {
    method: 'POST',
    body: JSON.stringify({
      name: `Bench Seller ${s}`,
      email: `bench-search-${s}-${Date.now()}@x.co`,
      password: 'secret-pass',
      role: 'Seller',
    }),
  });
  tokens.push(((await res.json()) as { token: string }).token);
}
const brands = ['samsung', 'sony', 'lg', 'walton', 'xiaomi', 'panasonic'];
const places = ['Dhanmondi, Dhaka', 'Gulshan, Dhaka', 'Mirpur, Dhaka', 'Chattogram', 'Sylhet', 'Rajshahi', 'Khulna'];
const sizes = [24, 32, 40, 43, 50, 55, 65];
const conditions = ['Excellent', 'Good', 'Fair'];
const listing = (i: number) => {
  const brand = brands[i % brands.length]!;
  return JSON.stringify({
    // Now and then a model number only a few listings carry.
    porduct_name: `${brand[0]!.toUpperCase()}${brand.slice(1)} ${sizes[i % sizes.length]}" Smart TV ${i}${i % 5000 === 7 ? ' X80J' : ''}`,
    productImage: 'https://example.com/tv.png',
    details: `Used ${1 + (i % 6)} years, remote included, ${i % 3 === 0 ? 'wall mount' : 'table stand'}`,
    // Spread over the places independently of the screen size (which follows i % 7).
    location: places[Math.floor(i / 7) % places.length],
    resale_price: 5000 + ((i * 7919) % 90000),
    orginal_price: 100000,
    use_duration: '2 years',
    phone_number: '01700000000',
    product_condition: conditions[Math.floor(i / 5) % conditions.length],
    category_id: brand === 'walton' || brand === 'xiaomi' || brand === 'panasonic' ? 'sony' : brand,
  });
};

const searches: [string, string][] = [
  ['a word', 'q=samsung'],
  ['a misspelt word', 'q=samsng'],
  ['brand, price, place, by price', 'category=samsung&minPrice=10000&maxPrice=30000&location=dhaka&sort=price_asc'],
  ['newest, page 1', 'sort=newest'],
  ['words and a filter', 'q=wall%20mount&condition=Excellent'],
  ['a rare word', 'q=x80j'],
  ['part of a word', 'q=pana'],
];

let written = 0;
console.log(`search benchmark: ${WRITERS} writers through POST /api/products, ${SEARCHES} of each search per size`);
for (const target of STAGES) {
  const t0 = performance.now();
  const start = written;
  await Promise.all(
    tokens.map(async (token, w) => {
      for (let i = start + w; i < target; i += WRITERS) {
        const res = await api('/products', { method: 'POST', body: listing(i) }, token);
        if (res.status !== 201) throw new Error(`listing ${i} answered ${res.status}: ${await res.text()}`);
      }
    }),
  );
  written = target;
  const seconds = (performance.now() - t0) / 1000;
  const waited = await shop.settled();
  console.log(
    `\n${target} listings (${target - start} written in ${seconds.toFixed(0)} s, ${((target - start) / seconds).toFixed(0)}/s; ` +
      `autovacuum's analyse of them waited for ${waited.toFixed(0)} s)`,
  );
  for (const [name, query] of searches) {
    const took: number[] = [];
    let total = 0;
    for (let n = 0; n < SEARCHES; n++) {
      const t = performance.now();
      const res = await api(`/products/search?${query}`);
      total = ((await res.json()) as { total: number }).total;
      took.push(performance.now() - t);
    }
    console.log(`  ${name.padEnd(32)} p50 ${pct(took, 50)} ms  p99 ${pct(took, 99)} ms  (${total} match)`);
  }
}
await shop.stop();
process.exit(0);
