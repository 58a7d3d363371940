import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductListing } from '@tv-shop/contracts';
import {
  InProcessChangeFeed,
  PostgresEventStore,
  ProjectionRunner,
  migrate,
  projectionMigrations,
  setCheckpoint,
  type ChangeNotice,
  type RunnerOptions,
} from '@tv-shop/platform';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { projections } from './module';

/**
 * The batch forms (ADR 0044) against the handlers one event at a time, over one log that has
 * every event the projections handle and the awkward orders: a seller verified before listing,
 * renamed after listings in earlier batches, a report repeated and one after its product's
 * removal, a booking placed again after its cancellation, a refund, a deleted account. Batches
 * of 7 events put an entity's follow-ups in other batches than its first event.
 */
let db: TestDatabase;
let store: PostgresEventStore;
const meta = (actorId: string) => ({
  actorId,
  actorRole: 'System',
  correlationId: randomUUID(),
  causationId: null,
  at: new Date().toISOString(),
});
const append = (stream: string, ...events: { type: string; data: unknown; by?: string }[]) =>
  store.append(
    stream,
    events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data, metadata: meta(e.by ?? 'system') })),
    'any',
  );

const listing = (productId: string, sellerId: string, n: number): ProductListing => ({
  productId,
  name: `Samsung ${32 + (n % 5)}" smart ${n}`,
  imageUrl: `/api/images/${n}.jpg`,
  ...(n % 2 ? { imageUrls: [`/api/images/${n}.jpg`, `/api/images/${n}b.jpg`], thumbnailUrls: [`/api/images/${n}.webp`] } : {}),
  details: `Works well, remote ${n}`,
  location: n % 3 ? 'Mirpur, Dhaka' : 'Sylhet',
  resalePricePoisha: 1_000_000 + n * 50,
  originalPricePoisha: 4_000_000,
  useDuration: '2 years',
  condition: 'Good',
  phone: '01700000000',
  categoryId: 'c1',
  categoryName: 'Samsung',
  sellerId,
  sellerName: `Seller ${sellerId}`,
  sellerEmail: `${sellerId}@x.test`,
  postedOn: '1-1-2026',
});
const user = (userId: string, role: string) => ({
  type: 'UserRegistered',
  data: { userId, name: `Name ${userId}`, email: `${userId}@x.test`, photoURL: '', role, passwordHash: `h-${userId}`, via: 'password' },
});

beforeAll(async () => {
  db = await createTestDatabase('bulk');
  await PostgresEventStore.migrate(db.pool);
  await migrate(db.pool, 'projections', projectionMigrations);
  store = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
  await append('category-c1', {
    type: 'CategoryAdded',
    data: { categoryId: 'c1', category_name: 'samsung', name: 'Samsung', bgColor: '#fff', color: '#000' },
  });
  await append('blog-b1', { type: 'BlogPublished', data: { blogId: 'b1', ques: 'Why?', paragraphs: ['One', 'Two'] } });
  for (const s of ['s1', 's2', 's3']) await append(`user-${s}`, user(s, 'Seller'));
  for (const b of ['b1', 'b2', 'b3']) await append(`user-${b}`, user(b, 'Buyer'));
  await append('user-s3', { type: 'SellerVerified', data: { userId: 's3' } });
  const products = Array.from({ length: 60 }, (_, n) => ({ id: `p${n}`, seller: `s${(n % 3) + 1}`, n }));
  for (const p of products) await append(`product-${p.id}`, { type: 'ProductListed', data: listing(p.id, p.seller, p.n), by: p.seller });
  for (const p of products.filter((x) => x.n % 4 === 0)) {
    const sold = { type: 'ProductMarkedSold', data: { productId: p.id } };
    await append(`product-${p.id}`, { type: 'ProductAdvertised', data: { productId: p.id } }, sold, {
      type: 'ProductMarkedAvailable',
      data: { productId: p.id },
    });
  }
  for (const p of products.filter((x) => x.n % 5 === 0)) {
    const report = (by: string, reason?: string) => ({
      type: 'ProductReported',
      data: { productId: p.id, reporterId: by, ...(reason ? { reporterName: `Name ${by}`, reason } : {}) },
      by,
    });
    await append(`product-${p.id}`, report('b1', 'Fake'), report('b2'), report('b1', 'Again'));
  }
  // Sellers' edits: a price and the words search finds; another brand; new photos (the old
  // thumbnails dropped); one right after its listing, in the same batch.
  await append('category-c2', {
    type: 'CategoryAdded',
    data: { categoryId: 'c2', category_name: 'walton', name: 'Walton', bgColor: '#fff', color: '#000' },
  });
  for (const p of products.filter((x) => x.n % 7 === 3)) {
    const changes =
      p.n % 2
        ? {
            imageUrl: `/api/images/${p.n}c.jpg`,
            imageUrls: [`/api/images/${p.n}c.jpg`],
            thumbnailUrls: [],
            categoryId: 'c2',
            categoryName: 'Walton',
          }
        : { resalePricePoisha: 900_000 + p.n, details: `Repriced, wall mount ${p.n}` };
    await append(`product-${p.id}`, { type: 'ProductEdited', data: { productId: p.id, changes }, by: p.seller });
  }
  await append('product-p60', { type: 'ProductListed', data: listing('p60', 's2', 60), by: 's2' });
  await append('product-p60', { type: 'ProductEdited', data: { productId: 'p60', changes: { name: 'Walton 50" edited' } }, by: 's2' });
  await append('user-s1', { type: 'UserProfileUpdated', data: { userId: 's1', name: 'Karim Ali', photoURL: '/me.jpg' } });
  await append('user-s2', { type: 'SellerVerified', data: { userId: 's2' } });
  await append('user-b1', { type: 'UserProfileUpdated', data: { userId: 'b1', name: 'Nusrat', photoURL: '' } });
  // Reports dismissed: p15 is reported again after; p20 stays dismissed; p1 was never reported.
  for (const id of ['p15', 'p20', 'p1'])
    await append(`product-${id}`, { type: 'ProductReportsDismissed', data: { productId: id, reports: 2 }, by: 'admin' });
  await append('product-p15', {
    type: 'ProductReported',
    data: { productId: 'p15', reporterId: 'b2', reporterName: 'Name b2', reason: 'Still fake' },
    by: 'b2',
  });
  await append('product-p10', { type: 'ProductRemoved', data: { productId: 'p10', reason: 'reported' } });
  // Taken off the shop for every other reason too (ADR 0070: each leaves a line in removed).
  await append('product-p12', { type: 'ProductRemoved', data: { productId: 'p12', reason: 'withdrawn' }, by: 's1' });
  await append('product-p14', { type: 'ProductRemoved', data: { productId: 'p14', reason: 'admin' }, by: 'admin' });
  /** Buyer b2's booking of a product, as BookingPlaced carries it. */
  const placing = (bookingId: string, productId: string, over: Record<string, unknown> = {}) => ({
    type: 'BookingPlaced',
    data: {
      bookingId,
      productId,
      productName: 'TV',
      productImage: '/i.jpg',
      pricePoisha: 1_000_000,
      buyerId: 'b2',
      buyerName: 'Name b2',
      buyerEmail: 'b2@x.test',
      phone: '01800000000',
      meetingLocation: 'Dhaka',
      ...over,
    },
    by: 'b2',
  });
  // A booking of p16 when it goes: cancelled with who took the listing off.
  await append('booking-bk-p16', placing('bk-p16', 'p16'));
  await append('product-p16', { type: 'ProductRemoved', data: { productId: 'p16', reason: 'seller-deleted' } });
  await append('booking-bk-p16', { type: 'BookingCancelled', data: { bookingId: 'bk-p16', productId: 'p16', reason: 'product-removed' } });
  await append('product-p10', {
    type: 'ProductReported',
    data: { productId: 'p10', reporterId: 'b3', reporterName: 'Late', reason: 'After' },
    by: 'b3',
  });
  for (const [i, p] of products.filter((x) => x.n % 6 === 1).entries()) {
    const booking = `bk${i}`;
    // Every other booking of a listing with a thumbnail, one placed again with another.
    const placed = placing(booking, p.id, i % 2 === 0 ? { productThumbnail: `/t${i}.jpg` } : {});
    await append(`booking-${booking}`, placed);
    if (i % 3 === 0) {
      const paid = {
        bookingId: booking,
        productId: p.id,
        buyerId: 'b2',
        paymentIntentId: `pi_${i}`,
        amountPoisha: 1_000_000,
        provider: 'sandbox',
      };
      await append(`booking-${booking}`, { type: 'BookingPaid', data: paid });
      await append(`product-${p.id}`, { type: 'ProductMarkedSold', data: { productId: p.id, bookingId: booking } });
    } else {
      await append(`booking-${booking}`, {
        type: 'BookingCancelled',
        data: { bookingId: booking, productId: p.id, reason: i % 3 === 2 ? 'buyer-cancelled' : 'product-removed' },
      });
      if (i % 3 === 1)
        await append(`booking-${booking}`, {
          ...placed,
          data: { ...placed.data, phone: '01900000000', pricePoisha: 900_000, productThumbnail: `/t${i}-again.jpg` },
        });
    }
  }
  await append('booking-bk0', {
    type: 'PaymentRefunded',
    data: { bookingId: 'bk0', paymentIntentId: 'pi_0', amountPoisha: 1_000_000, reason: 'product-unavailable' },
  });
  // Paid after its buyer cancelled it: the money went back, twice over two intents.
  for (const n of [1, 2])
    await append('booking-bk2', {
      type: 'PaymentRefunded',
      data: { bookingId: 'bk2', paymentIntentId: `pi_2_${n}`, amountPoisha: 1_000_000, reason: 'product-unavailable' },
    });
  // bk1 was placed again at another price: a late refund of its first placing's payment stays with that placing.
  await append('booking-bk1', {
    type: 'PaymentRefunded',
    data: { bookingId: 'bk1', paymentIntentId: 'pi_1_first', amountPoisha: 1_000_000, reason: 'product-unavailable', ofPlacing: 1 },
  });
  // How to reach a seller changes after their TVs were booked (every booked TV here is s2's): a
  // listing's phone (p7's booking placed again is open; p13's cancelled), then the seller's name.
  await append('product-p7', { type: 'ProductEdited', data: { productId: 'p7', changes: { phone: '01555000000' } }, by: 's2' });
  await append('product-p13', { type: 'ProductEdited', data: { productId: 'p13', changes: { phone: '01555000001' } }, by: 's2' });
  await append('user-s2', { type: 'UserProfileUpdated', data: { userId: 's2', name: 'Comilla Screens', photoURL: '' } });
  await append('user-b3', { type: 'PasswordChanged', data: { userId: 'b3', passwordHash: 'h2' } });
  await append('user-b3', { type: 'SessionsEnded', data: { userId: 'b3' } });
  await append('user-b2', { type: 'SessionsEnded', data: { userId: 'b2' } });
  await append('user-b2', { type: 'SessionsEnded', data: { userId: 'b2' } });
  // Log Out, one session at a time; the same session twice is kept once (ADR 0066).
  for (const sessionId of ['s1', 's2', 's1']) await append('user-b2', { type: 'SignedOut', data: { userId: 'b2', sessionId } });
  await append('user-b3', { type: 'UserDeleted', data: { userId: 'b3', email: 'b3@x.test', role: 'Buyer' } });
  // A seller closes their account with a TV sold (p1 is s2's): the listing stays, nothing of them on it.
  await append('product-p1', { type: 'ProductMarkedSold', data: { productId: 'p1' } });
  await append('user-s2', { type: 'UserDeleted', data: { userId: 's2', email: 's2@x.test', role: 'Seller' } });
  // Old listings change again, many batches after they were listed.
  for (const p of products.filter((x) => x.n % 7 === 0))
    await append(`product-${p.id}`, { type: 'ProductAdvertisingRemoved', data: { productId: p.id } });
}, 60_000);
afterAll(async () => {
  await store.close();
  await db.drop();
});

describe('replaying in batches (ADR 0044)', () => {
  it('every projection offers a batch form', () => {
    expect(projections.filter((p) => !p.applyBatch).map((p) => p.name)).toEqual([]);
  });

  it.each(projections.map((p) => [p.name, p] as const))(
    '%s: tables built one event at a time and tables replayed in batches are equal, row for row',
    { timeout: 60_000 },
    async (_, projection) => {
      const feed = new InProcessChangeFeed();
      const oneByOne = new ProjectionRunner(db.pool, store, feed, projection, { bulk: false });
      await oneByOne.start();
      await oneByOne.caughtUp();
      await oneByOne.stop();
      // verify replays the log into scratch tables (here with the batch form) and compares them with the live ones.
      const inBatches = await new ProjectionRunner(db.pool, store, feed, projection, { bulkSize: 7 }).verify();
      expect(inBatches.differences).toEqual([]);
      expect(inBatches.equal).toBe(true);
      expect(inBatches.rows).toBeGreaterThan(0);

      // And the other way round: a rebuild in batches, checked by a replay one event at a time.
      const rebuilder = new ProjectionRunner(db.pool, store, feed, projection, { bulkSize: 7 });
      await rebuilder.start();
      await rebuilder.rebuild();
      await rebuilder.stop();
      const oneAtATime = await new ProjectionRunner(db.pool, store, feed, projection, { bulk: false }).verify();
      expect(oneAtATime.differences).toEqual([]);
      expect(oneAtATime.rows).toBe(inBatches.rows);
    },
  );

  it(
    'a start a long way behind catches up in batches, and announces each changed row as its last single-event push did',
    { timeout: 60_000 },
    async () => {
      const catalog = projections.find((p) => p.name === 'catalog')!;
      /** The last push of each entity while a copy of the catalog projection (its own name and schema) starts from 0. */
      const lastPushes = async (name: string, opts: RunnerOptions) => {
        const feed = new InProcessChangeFeed();
        const notices: ChangeNotice[] = [];
        feed.subscribe((n) => notices.push(n));
        const runner = new ProjectionRunner(db.pool, store, feed, { ...catalog, name, schema: `rm_${name}` }, opts);
        await runner.start();
        await runner.caughtUp();
        await runner.stop();
        const last = new Map<string, unknown>();
        // Products only: one event at a time, a reported product's admin push is not repeated when
        // its seller is verified later, while a batch announces it as it ends (fresher, not the same).
        for (const n of notices)
          if (n.kind === 'change' && n.push.entity === 'product') last.set(n.push.id, n.push.op === 'upsert' ? n.push.row : 'removed');
        return { last, checkpoints: notices.filter((n) => n.kind === 'checkpoint').length };
      };
      const single = await lastPushes('catalog_single', { bulk: false });
      // The log is shorter than the default threshold (1,000 positions behind): the test lowers it.
      const batched = await lastPushes('catalog_batched', { bulkSize: 40, catchUpInBulk: 1, firstStartAsRebuild: false });
      expect(batched.checkpoints).toBeGreaterThan(5); // a batch of 40 at a time, each committed with its checkpoint
      expect(single.last.size).toBe(61); // every product listed, p10, p12, p14 and p16 as removed
      expect([...single.last].filter(([, v]) => v === 'removed').map(([id]) => id)).toEqual(['p10', 'p12', 'p14', 'p16']);
      expect(batched.last).toEqual(single.last);
      // The closed account's sold listing: nothing of its seller in what everyone is sent.
      expect(single.last.get('p1')).toMatchObject({
        sold: true,
        seller: 'A former seller',
        sellerEmail: '',
        phone_number: '',
        sellerVerified: false,
      });
      const tables = await new ProjectionRunner(
        db.pool,
        store,
        new InProcessChangeFeed(),
        { ...catalog, name: 'catalog_batched', schema: 'rm_catalog_batched' },
        { bulk: false },
      ).verify();
      expect(tables.equal).toBe(true);
      // Its seller is kept with a listing taken off, for their My Products, while their account is:
      // s2's (p10, removed before the account closed; p16, with it) keep nothing of them, nor
      // where in the log they went.
      const { rows: removed } = await db.pool.query(
        `select id, reason, seller_id, name, at > 0 as at_kept from rm_catalog_batched.removed where id = any($1) order by id`,
        [['p10', 'p12', 'p14', 'p16']],
      );
      expect(removed).toEqual([
        { id: 'p10', reason: 'reported', seller_id: null, name: '', at_kept: false },
        { id: 'p12', reason: 'withdrawn', seller_id: 's1', name: expect.stringMatching(/.+/), at_kept: true },
        { id: 'p14', reason: 'admin', seller_id: 's3', name: expect.stringMatching(/.+/), at_kept: true },
        { id: 'p16', reason: 'seller-deleted', seller_id: null, name: '', at_kept: false },
      ]);
    },
  );

  it(
    'a first start a long way behind fills its tables as a rebuild: beside, indexes built after, swapped in at the head, browsers told to read again',
    { timeout: 60_000 },
    async () => {
      const catalog = projections.find((p) => p.name === 'catalog')!;
      const feed = new InProcessChangeFeed();
      const notices: ChangeNotice[] = [];
      feed.subscribe((n) => notices.push(n));
      const copy = { ...catalog, name: 'catalog_first', schema: 'rm_catalog_first' };
      const runner = new ProjectionRunner(db.pool, store, feed, copy, { bulkSize: 40, catchUpInBulk: 1 });
      await runner.start();
      await runner.caughtUp();
      await runner.stop();
      const head = await store.headPosition();
      // No row announced one by one (nobody had any); one notice that the tables were filled anew.
      expect(notices.filter((n) => n.kind === 'change')).toEqual([]);
      expect(notices.filter((n) => n.kind === 'rebuilt')).toEqual([{ kind: 'rebuilt', projection: 'catalog_first', position: head }]);
      const { rows } = await db.pool.query<{ rebuilt_at: string; position: string }>(
        `select rebuilt_at, position from projection_checkpoints where name = 'catalog_first'`,
      );
      expect(rows.map((r) => [Number(r.rebuilt_at), Number(r.position)])).toEqual([[head, head]]);
      // The secondary indexes are there, as the definition makes them.
      const indexes = async (schema: string) =>
        (await db.pool.query<{ n: number }>(`select count(*)::int as n from pg_indexes where schemaname = $1`, [schema])).rows[0]!.n;
      expect(await indexes('rm_catalog_first')).toBe(await indexes('rm_catalog'));
      expect((await db.pool.query(`select count(*)::int as n from pg_namespace where nspname like 'rm_catalog_first__%'`)).rows[0].n).toBe(
        0,
      );
      // And the rows are those of a replay one event at a time.
      const checked = await new ProjectionRunner(db.pool, store, new InProcessChangeFeed(), copy, { bulk: false }).verify();
      expect(checked.differences).toEqual([]);
      expect(checked.equal).toBe(true);

      // Tables found at position 0 (a fill cut short, or the checkpoint set back by hand) are
      // filled again the same way, not caught up row by row through the live tables.
      await setCheckpoint(db.pool, 'catalog_first', 0);
      notices.length = 0;
      const again = new ProjectionRunner(db.pool, store, feed, copy, { bulkSize: 40, catchUpInBulk: 1 });
      await again.start();
      await again.caughtUp();
      await again.stop();
      expect(notices.filter((n) => n.kind === 'change')).toEqual([]);
      expect(notices.filter((n) => n.kind === 'rebuilt')).toEqual([{ kind: 'rebuilt', projection: 'catalog_first', position: head }]);
      expect((await new ProjectionRunner(db.pool, store, new InProcessChangeFeed(), copy, { bulk: false }).verify()).equal).toBe(true);
    },
  );

  it(
    'a listing removed within the batch that listed it is announced by neither event (nobody had it), so no removal without its row reaches every view',
    { timeout: 60_000 },
    async () => {
      const catalog = projections.find((p) => p.name === 'catalog')!;
      const fleeting = randomUUID();
      await append(`product-${fleeting}`, { type: 'ProductListed', data: listing(fleeting, 's1', 99) });
      await append(`product-${fleeting}`, { type: 'ProductRemoved', data: { productId: fleeting, reason: 'withdrawn' } });
      const pushesOf = async (name: string, opts: RunnerOptions) => {
        const feed = new InProcessChangeFeed();
        const ops: string[] = [];
        feed.subscribe((n) => {
          if (n.kind === 'change' && n.push.entity === 'product' && n.push.id === fleeting) ops.push(n.push.op);
        });
        const runner = new ProjectionRunner(db.pool, store, feed, { ...catalog, name, schema: `rm_${name}` }, opts);
        await runner.start();
        await runner.caughtUp();
        await runner.stop();
        return ops;
      };
      // One event at a time, each is announced; in one batch (the whole log), neither.
      expect(await pushesOf('catalog_fleeting_single', { bulk: false })).toEqual(['upsert', 'remove']);
      expect(await pushesOf('catalog_fleeting_batched', { bulkSize: 10_000, catchUpInBulk: 1, firstStartAsRebuild: false })).toEqual([]);
      // Either way, its page says why it went (ADR 0070): the same line in removed.
      for (const name of ['catalog_fleeting_single', 'catalog_fleeting_batched']) {
        const { rows } = await db.pool.query(`select reason, category_id, removed_on::text as day from rm_${name}.removed where id = $1`, [
          fleeting,
        ]);
        expect(rows).toEqual([{ reason: 'withdrawn', category_id: expect.any(String), day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }]);
      }
    },
  );
});
