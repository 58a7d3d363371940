import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '@tv-shop/platform/testing';
import type { ReadModels } from './read-models';
import { handWrittenLog, projectedDatabase } from './testing/log';
import { referencedImages } from '@tv-shop/images';

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

const { event, user, listed, placed } = handWrittenLog();

describe('image references: each service names the pictures its read model keeps', () => {
  let db: TestDatabase;
  let reads: ReadModels;
  beforeAll(async () => {
    ({ db, reads } = await projectedDatabase('image_refs', [
      user('s1', { role: 'Seller', photoURL: img(1) }),
      user('s2', { role: 'Seller', photoURL: `https://shop.example${img(2)}` }),
      user('s3', { role: 'Seller', photoURL: '' }),
      user('gone', { role: 'Seller', photoURL: img(3) }),
      event('UserDeleted', { userId: 'gone', email: 'gone@x.test', role: 'Seller' }),
      event('UserProfileUpdated', { userId: 's1', name: 's1', photoURL: img(4) }),
      user('elsewhere', { role: 'Seller', photoURL: 'https://i.ibb.co/x/photo.jpg' }),
      listed('p1', { imageUrl: img(5) }),
      listed('p2', { imageUrl: img(6) }),
      event('ProductRemoved', { productId: 'p2', reason: 'admin' }),
      listed('p3', { imageUrl: img(7) }),
      event('ProductMarkedSold', { productId: 'p3' }),
      placed('bk1', 'p1', { productImage: img(8) }),
      placed('bk2', 'p3', { productImage: img(7) }),
      event('BookingCancelled', { bookingId: 'bk1', productId: 'p1', reason: 'product-sold' }),
    ]));
  });
  afterAll(async () => {
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

describe('image references: a listing names every photo and thumbnail it keeps', () => {
  let db: TestDatabase;
  let reads: ReadModels;
  // Two-digit numbers: 38 + 2 hex digits make an image id.
  const pid = (n: number) => `${'b'.repeat(38)}${n}.jpg`;
  const img = (n: number) => `/api/images/${pid(n)}`;
  const photos = [img(11), img(12), img(13)];
  const thumbs = [img(21), img(22), img(23)];
  /** A listing with several photos, the first the cover, and a thumbnail for each. */
  const listedWithPhotos = (productId: string, imageUrls: string[], thumbnailUrls: string[]) => {
    const e = listed(productId, { imageUrl: imageUrls[0]! });
    return { ...e, data: { ...(e.data as Record<string, unknown>), imageUrls, thumbnailUrls } };
  };
  beforeAll(async () => {
    ({ db, reads } = await projectedDatabase('image_refs_photos', [
      listedWithPhotos('p1', photos, thumbs),
      listed('p2', { imageUrl: img(14) }),
      listedWithPhotos('p3', [img(15), img(16)], [img(25), img(26)]),
      // Booked before its removal: the booking keeps the cover and its thumbnail as it was booked.
      placed('bk3', 'p3', { productImage: img(15), productThumbnail: img(25) }),
      event('ProductRemoved', { productId: 'p3', reason: 'admin' }),
    ]));
  });
  afterAll(async () => {
    await db.drop();
  });

  it('each listed photo and thumbnail is named once; a removed listing’s are not, but for the cover and thumbnail a booking of it shows', async () => {
    expect([...(await reads.imageUrls())].sort()).toEqual([...photos, ...thumbs, img(14), img(15), img(25)].sort());
    expect([...(await referencedImages(reads))].sort()).toEqual([11, 12, 13, 14, 15, 21, 22, 23, 25].map(pid).sort());
  });
});
