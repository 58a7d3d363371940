// How fast the read models are rebuilt from the log, beside how fast this PostgreSQL server
// takes a bulk insert (issue 16). On a fresh database of the server (SERVER_URL, default the
// machine's postgres://postgres@127.0.0.1:5432/postgres) it writes a marketplace's log through
// the event store (LISTINGS listings, 10,000 by default, with the sellers and buyers, bookings,
// payments, sold toggles, adverts, reports and removals that follow them), then for each
// projection the projector hosts: its first start (filled as a rebuild, ADR 0068), a rebuild, a
// catch-up of the whole log in the live tables (the first start before ADR 0068; a start after
// downtime applies its gap the same way, to tables that already hold the rest), and
// a verify (the rebuilt tables against a replay, row by row). Last, the same number of rows as the
// log has events inserted in bulk (multi-row inserts of 5,000) into a copy of rm_catalog.products
// with its indexes: what the server can write, the ceiling a rebuild is compared with.
//   npm run bench:rebuild                   (LISTINGS=2000 for a quick run; BULK=0: one event at a time, as before issue 16)
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { listedProductRow } from '@tv-shop/catalog';
import type { ProductListing } from '@tv-shop/contracts';
import { InProcessChangeFeed, PostgresEventStore, ProjectionRunner, createPool, migrate, projectionMigrations } from '@tv-shop/platform';
import type { NewEvent } from '@tv-shop/platform';
import { projections } from '@tv-shop/projector';

const LISTINGS = Number(process.env.LISTINGS ?? 10_000);
const SELLERS = Math.max(5, Math.round(LISTINGS / 50));
const BUYERS = Math.max(10, Math.round(LISTINGS / 10));
const WRITERS = 8;
const BULK = process.env.BULK !== '0';
const serverUrl = process.env.SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// A fixed sequence (mulberry32), so that every run writes the same log.
let seed = 16;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const chance = (p: number) => random() < p;

const dbName = `tvshop_bench_rebuild_${Date.now().toString(36)}_${process.pid}`;
const databaseUrl = new URL(serverUrl);
databaseUrl.pathname = `/${dbName}`;
const pool = createPool(databaseUrl.toString(), WRITERS + 4);
const store = new PostgresEventStore(pool);

function rate(events: number, seconds: number): string {
  return Math.round(events / seconds).toLocaleString('en');
}

/** Seconds to insert `n` rows shaped like the catalog's products (same columns and indexes), 5,000 rows a statement, in one transaction. */
async function bulkInsertRate(n: number): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('create table public.bench_bulk (like rm_catalog.products including all)');
    const rows = Array.from({ length: n }, (_, i) => {
      return listedProductRow(listing(`bulk-${i}`, `seller-${i % SELLERS}`), false, i + 1);
    });
    const columns = Object.keys(rows[0]!).join(', ');
    const t0 = performance.now();
    await client.query('begin');
    for (let i = 0; i < rows.length; i += 5000)
      await client.query(
        `insert into public.bench_bulk (${columns}) select ${columns} from json_populate_recordset(null::public.bench_bulk, $1)`,
        [JSON.stringify(rows.slice(i, i + 5000))],
      );
    await client.query('commit');
    const seconds = (performance.now() - t0) / 1000;
    await client.query('drop table public.bench_bulk');
    return seconds;
  } finally {
    client.release();
  }
}

// ---------------------------------------------------------------------------------------------
// The log: what a marketplace of this size writes, in the order it happens, through the store.

const BRANDS = ['Samsung', 'Sony', 'LG', 'Walton', 'Panasonic', 'Philips', 'TCL', 'Xiaomi'] as const;
const PLACES = ['Mirpur, Dhaka', 'Dhanmondi, Dhaka', 'Uttara, Dhaka', 'Agrabad, Chattogram', 'Sylhet', 'Khulna', 'Rajshahi'] as const;
const WORDS = ['crystal', 'smart', 'android', 'led', 'oled', 'curved', 'remote', 'wallmount', 'hdr', 'netflix', 'box', 'warranty'];
const CONDITIONS = ['Excellent', 'Good', 'Fair'] as const;
const categoryIds = BRANDS.map((_, i) => `cat-${i}`);

function listing(productId: string, sellerId: string): ProductListing {
  const brand = pick(BRANDS);
  const b = BRANDS.indexOf(brand);
  const photos = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `/api/images/${randomUUID()}.jpg`);
  const price = 500_000 + Math.floor(random() * 9_000) * 100;
  return {
    productId,
    name: `${brand} ${32 + Math.floor(random() * 8) * 5}" ${pick(WORDS)} ${String(1000 + Math.floor(random() * 9000))}`,
    imageUrl: photos[0]!,
    imageUrls: photos,
    thumbnailUrls: photos.map((p) => p.replace('.jpg', '.webp')),
    details: `${pick(WORDS)} ${pick(WORDS)}, ${pick(WORDS)} and ${pick(WORDS)}; used ${1 + Math.floor(random() * 6)} years`,
    location: pick(PLACES),
    resalePricePoisha: price,
    originalPricePoisha: price * 2,
    useDuration: `${1 + Math.floor(random() * 6)} years`,
    condition: pick(CONDITIONS),
    phone: `017${String(Math.floor(random() * 1e8)).padStart(8, '0')}`,
    categoryId: categoryIds[b]!,
    categoryName: brand,
    sellerId,
    sellerName: `Seller ${sellerId}`,
    sellerEmail: `${sellerId}@bench.tvshop.local`,
    postedOn: `${1 + Math.floor(random() * 28)}-${1 + Math.floor(random() * 12)}-2026`,
  };
}

type Task = { stream: string; events: { type: string; data: unknown; actor: string; role: string }[] };

/** Appends every task's events to its stream, WRITERS at a time, in the order given within each stream. */
async function append(tasks: Task[]): Promise<number> {
  let next = 0;
  const at = () => new Date().toISOString();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < tasks.length) {
        const task = tasks[next++]!;
        const correlationId = randomUUID();
        const events: NewEvent[] = task.events.map((e) => ({
          eventId: randomUUID(),
          type: e.type,
          data: e.data,
          metadata: { actorId: e.actor, actorRole: e.role, correlationId, causationId: null, at: at() },
        }));
        await store.append(task.stream, events, 'any');
      }
    }),
  );
  return tasks.length;
}

async function writeLog(): Promise<number> {
  let appends = 0;
  const sellers = Array.from({ length: SELLERS }, (_, i) => `seller-${i}`);
  const buyers = Array.from({ length: BUYERS }, (_, i) => `buyer-${i}`);
  const user = (id: string, role: 'Seller' | 'Buyer'): Task => ({
    stream: `user-${id}`,
    events: [
      {
        type: 'UserRegistered',
        data: {
          userId: id,
          name: `Name ${id}`,
          email: `${id}@bench.tvshop.local`,
          photoURL: '',
          role,
          passwordHash: `hash-${id}`,
          via: 'password',
        },
        actor: id,
        role,
      },
    ],
  });
  appends += await append([
    ...BRANDS.map((brand, i) => ({
      stream: `category-${categoryIds[i]}`,
      events: [
        {
          type: 'CategoryAdded',
          data: { categoryId: categoryIds[i], category_name: brand.toLowerCase(), name: brand, bgColor: '#fff', color: '#000' },
          actor: 'system',
          role: 'System',
        },
      ],
    })),
    ...sellers.map((id) => user(id, 'Seller')),
    ...buyers.map((id) => user(id, 'Buyer')),
  ]);

  // Listings, each with its seller's slot.
  const products = Array.from({ length: LISTINGS }, (_, i) => ({ id: randomUUID(), seller: sellers[i % SELLERS]!, n: i }));
  const listings = new Map(products.map((p) => [p.id, listing(p.id, p.seller)]));
  appends += await append(
    products.flatMap((p) => [
      { stream: `product-${p.id}`, events: [{ type: 'ProductListed', data: listings.get(p.id), actor: p.seller, role: 'Seller' }] },
      {
        stream: `seller_listings-${p.seller}`,
        events: [
          {
            type: 'ListingSlotTaken',
            data: { sellerId: p.seller, productId: p.id, at: new Date().toISOString(), reason: 'listed' },
            actor: p.seller,
            role: 'Seller',
          },
        ],
      },
    ]),
  );

  // What follows a listing: adverts, bookings and payments, sales elsewhere taken back, reports, removals.
  const followUps: Task[] = [];
  for (const p of products) {
    const l = listings.get(p.id)!;
    const on = (type: string, data: unknown, actor = p.seller, role = 'Seller') => ({ type, data, actor, role });
    const product: Task = { stream: `product-${p.id}`, events: [] };
    if (chance(0.3)) product.events.push(on('ProductAdvertised', { productId: p.id }));
    if (chance(0.1)) product.events.push(on('ProductAdvertisingRemoved', { productId: p.id }));
    if (chance(0.05)) {
      for (const reporter of [pick(buyers), pick(buyers)])
        product.events.push(
          on(
            'ProductReported',
            { productId: p.id, reporterId: reporter, reporterName: `Name ${reporter}`, reason: 'Looks fake' },
            reporter,
            'Buyer',
          ),
        );
    }
    if (chance(0.02)) {
      product.events.push(on('ProductRemoved', { productId: p.id, reason: 'reported' }, 'admin', 'Admin'));
      followUps.push(product);
      continue;
    }
    if (chance(0.25)) {
      product.events.push(on('ProductMarkedSold', { productId: p.id }));
      if (chance(0.5)) product.events.push(on('ProductMarkedAvailable', { productId: p.id }));
    }
    if (chance(0.25)) {
      const placed = Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({ id: randomUUID(), buyer: pick(buyers) }));
      const paid = chance(0.6) ? placed[0]! : null;
      for (const b of placed) {
        const booking: Task = { stream: `booking-${b.id}`, events: [] };
        const by = (type: string, data: unknown) => ({ type, data, actor: b.buyer, role: 'Buyer' });
        booking.events.push(
          by('BookingPlaced', {
            bookingId: b.id,
            productId: p.id,
            productName: l.name,
            productImage: l.imageUrl,
            pricePoisha: l.resalePricePoisha,
            buyerId: b.buyer,
            buyerName: `Name ${b.buyer}`,
            buyerEmail: `${b.buyer}@bench.tvshop.local`,
            phone: '01800000000',
            meetingLocation: pick(PLACES),
          }),
        );
        if (b === paid) {
          const intent = `pi_${randomUUID()}`;
          booking.events.push(
            by('PaymentIntentCreated', {
              bookingId: b.id,
              paymentIntentId: intent,
              provider: 'sandbox',
              amountPoisha: l.resalePricePoisha,
              currency: 'bdt',
            }),
          );
          booking.events.push(
            by('BookingPaid', {
              bookingId: b.id,
              productId: p.id,
              buyerId: b.buyer,
              paymentIntentId: intent,
              amountPoisha: l.resalePricePoisha,
              provider: 'sandbox',
            }),
          );
          product.events.push(
            on('ProductMarkedSold', { productId: p.id, bookingId: b.id, buyerName: `Name ${b.buyer}` }, b.buyer, 'Buyer'),
          );
        } else if (paid)
          booking.events.push({
            type: 'BookingCancelled',
            data: { bookingId: b.id, productId: p.id, reason: 'product-sold' },
            actor: 'system',
            role: 'System',
          });
        followUps.push(booking);
      }
    }
    if (product.events.length) followUps.push(product);
  }
  appends += await append(followUps);

  // Sellers rename themselves and are verified; some passwords change; a few buyers leave.
  appends += await append([
    ...sellers
      .filter(() => chance(0.3))
      .map((id) => ({
        stream: `user-${id}`,
        events: [
          {
            type: 'UserProfileUpdated',
            data: { userId: id, name: `Renamed ${id}`, photoURL: '/api/images/me.jpg' },
            actor: id,
            role: 'Seller',
          },
        ],
      })),
    ...sellers
      .filter(() => chance(0.5))
      .map((id) => ({
        stream: `user-${id}`,
        events: [{ type: 'SellerVerified', data: { userId: id }, actor: 'admin', role: 'Admin' }],
      })),
    ...buyers
      .filter(() => chance(0.1))
      .map((id) => ({
        stream: `user-${id}`,
        events: [{ type: 'PasswordChanged', data: { userId: id, passwordHash: `hash2-${id}` }, actor: id, role: 'Buyer' }],
      })),
    ...buyers
      .filter(() => chance(0.02))
      .map((id) => ({
        stream: `user-${id}`,
        events: [{ type: 'UserDeleted', data: { userId: id, email: `${id}@bench.tvshop.local`, role: 'Buyer' }, actor: id, role: 'Buyer' }],
      })),
  ]);

  // And later, old listings change again: adverts come and go, sales elsewhere are taken back.
  appends += await append(
    products
      .filter(() => chance(0.2))
      .map((p) => ({
        stream: `product-${p.id}`,
        events: [
          {
            type: chance(0.5) ? 'ProductAdvertised' : 'ProductAdvertisingRemoved',
            data: { productId: p.id },
            actor: p.seller,
            role: 'Seller',
          },
        ],
      })),
  );
  return appends;
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);

  try {
    await PostgresEventStore.migrate(pool);
    await migrate(pool, 'projections', projectionMigrations);
    const t0 = performance.now();
    const appended = await writeLog();
    const head = await store.headPosition();
    console.log(
      `log: ${head} events (${LISTINGS} listings, ${SELLERS} sellers, ${BUYERS} buyers) in ${appended} appends, written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    console.log(`path: ${BULK ? 'in batches (set-based)' : 'one event at a time (BULK=0)'}`);

    const results: { name: string; first: number; catchUp: number; rebuild: number; equal: boolean }[] = [];
    /** A runner started at position 0 and waited for until it has the whole log: in seconds. */
    const timedStart = async (runner: ProjectionRunner) => {
      const s0 = performance.now();
      await runner.start();
      await runner.caughtUp();
      return (performance.now() - s0) / 1000;
    };
    for (const projection of projections) {
      const runner = new ProjectionRunner(pool, store, new InProcessChangeFeed(), projection, { bulk: BULK });
      const first = await timedStart(runner);
      const s1 = performance.now();
      let shown = 0;
      await runner.rebuild({
        onProgress: (p) => {
          if (performance.now() - shown < 2000) return;
          shown = performance.now();
          process.stderr.write(`  rebuild ${projection.name}: ${p.replayed} of ${head} events\n`);
        },
      });
      const rebuild = (performance.now() - s1) / 1000;
      await runner.stop();
      // The whole log caught up in the live tables, batch after batch with their checkpoints and
      // announcements: the first start before ADR 0068, and the way a start after downtime applies
      // its gap (there to tables that already hold the rest, which this does not measure).
      const copy = { ...projection, name: `${projection.name}_catch_up`, schema: `${projection.schema}_catch_up` };
      const behind = new ProjectionRunner(pool, store, new InProcessChangeFeed(), copy, { bulk: BULK, firstStartAsRebuild: false });
      const catchUp = await timedStart(behind);
      await behind.stop();
      // Replayed the other way (one event at a time after a batch rebuild): the two must agree.
      const verified = await new ProjectionRunner(pool, store, new InProcessChangeFeed(), projection, { bulk: !BULK }).verify();
      results.push({ name: projection.name, first, catchUp, rebuild, equal: verified.equal });
      console.log(
        `${projection.name.padEnd(8)} first start ${rate(head, first)} events/s (${first.toFixed(2)} s), ` +
          `rebuild ${rate(head, rebuild)} events/s (${rebuild.toFixed(2)} s), ` +
          `catch-up in the live tables ${rate(head, catchUp)} events/s (${catchUp.toFixed(2)} s); verify: ${verified.equal ? `equal, ${verified.rows} rows` : 'DIFFERS'}`,
      );
    }

    const bulk = await bulkInsertRate(head);
    console.log(
      `bulk insert: ${head} rows into a copy of rm_catalog.products (its indexes too), 5,000 a statement: ${rate(head, bulk)} rows/s (${bulk.toFixed(2)} s)`,
    );
    const ratio = (seconds: number) => `${rate(head, seconds).padStart(7)} events/s = ${(bulk / seconds).toFixed(2)}x`;
    for (const r of results)
      console.log(
        `${r.name.padEnd(8)} rebuild ${ratio(r.rebuild)} the bulk-insert rate; first start ${ratio(r.first)}; catch-up in the live tables ${ratio(r.catchUp)}`,
      );
    if (results.some((r) => !r.equal)) process.exitCode = 1;
  } finally {
    await store.close();
    await pool.end();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

await main();
