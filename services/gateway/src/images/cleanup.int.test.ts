import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessChangeFeed, PostgresEventStore, migrate, projectionMigrations } from '@tv-shop/platform';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { startProjector } from '@tv-shop/projector';
import { ReadModels } from '../read-models';
import { referencedImages } from './cleanup';

/**
 * The upload sweeper asks each service's read model which pictures it refers to. Together they
 * must name exactly the images the three statements the gateway used to run named.
 */
const before = [
  'select image as url from rm_catalog.products',
  'select photo_url as url from rm_identity.users where not deleted',
  'select product_image as url from rm_orders.bookings',
];
const id = (n: number) => `${'a'.repeat(39)}${n}.webp`;
const img = (n: number) => `/api/images/${id(n)}`;

let seconds = 0;
const event = (type: string, data: Record<string, unknown>) => ({
  eventId: randomUUID(),
  type,
  data,
  metadata: {
    actorId: 'test',
    actorRole: 'System',
    correlationId: randomUUID(),
    causationId: null,
    at: new Date(Date.UTC(2025, 0, 1, 0, 0, ++seconds)).toISOString(),
  },
});
const user = (userId: string, photoURL: string) =>
  event('UserRegistered', { userId, name: userId, email: `${userId}@x.test`, photoURL, role: 'Seller', passwordHash: null, via: 'google' });
const listed = (productId: string, imageUrl: string) =>
  event('ProductListed', {
    productId,
    name: `TV ${productId}`,
    imageUrl,
    details: 'd',
    location: 'Dhaka',
    resalePricePoisha: 1_000_000,
    originalPricePoisha: 2_000_000,
    useDuration: '1 year',
    condition: 'Good',
    phone: '0170',
    categoryId: 'c1',
    categoryName: 'Sony',
    sellerId: 's1',
    sellerName: 'Karim',
    sellerEmail: 's1@x.test',
    postedOn: '1-1-2025',
  });
const placed = (bookingId: string, productId: string, productImage: string) =>
  event('BookingPlaced', {
    bookingId,
    productId,
    productName: `TV ${productId}`,
    productImage,
    pricePoisha: 1_000_000,
    buyerId: 'b1',
    buyerName: 'Nusrat',
    buyerEmail: 'b1@x.test',
    phone: '0180',
    meetingLocation: 'Gulshan',
  });

describe('image references: each service names the pictures its read model keeps', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let reads: ReadModels;
  beforeAll(async () => {
    db = await createTestDatabase('image_refs');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
    const log = [
      user('s1', img(1)),
      user('s2', `https://shop.example${img(2)}`),
      user('s3', ''),
      user('gone', img(3)),
      event('UserDeleted', { userId: 'gone', email: 'gone@x.test', role: 'Seller' }),
      event('UserProfileUpdated', { userId: 's1', name: 's1', photoURL: img(4) }),
      user('elsewhere', 'https://i.ibb.co/x/photo.jpg'),
      listed('p1', img(5)),
      listed('p2', img(6)),
      event('ProductRemoved', { productId: 'p2', reason: 'admin' }),
      listed('p3', img(7)),
      event('ProductMarkedSold', { productId: 'p3' }),
      placed('bk1', 'p1', img(8)),
      placed('bk2', 'p3', img(7)),
      event('BookingCancelled', { bookingId: 'bk1', productId: 'p1', reason: 'product-sold' }),
    ];
    for (const e of log) await store.append(`s-${randomUUID()}`, [e], 'any');
    const projector = await startProjector({ pool: db.pool, store, feed: new InProcessChangeFeed() });
    await projector.caughtUp();
    await projector.stop();
    reads = new ReadModels(db.pool);
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('the services’ queries name the same addresses the statements did', async () => {
    const urls: string[] = [];
    for (const sql of before) {
      const { rows } = await db.pool.query<{ url: string | null }>(sql);
      for (const { url } of rows) if (url) urls.push(url);
    }
    expect([...(await reads.imageUrls())].sort()).toEqual(urls.sort());
  });

  it('the referenced ids are those of live accounts, listed or sold products and every booking; a removed product’s, a deleted account’s and a replaced photo are not', async () => {
    const ids = await referencedImages(reads);
    expect([...ids].sort()).toEqual([2, 4, 5, 7, 8].map(id).sort());
  });
});
