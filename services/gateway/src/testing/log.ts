import { randomUUID } from 'node:crypto';
import { InProcessChangeFeed, PostgresEventStore, migrate, projectionMigrations, type NewEvent } from '@tv-shop/platform';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { startProjector } from '@tv-shop/projector';
import { ReadModels } from '../read-models';

/**
 * A log written by hand for tests that run the real projections over it: events one second
 * apart from 2025-01-01, with plain defaults for the fields a test does not care about.
 */
export function handWrittenLog() {
  let seconds = 0;
  const event = (type: string, data: Record<string, unknown>): NewEvent => ({
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
  const user = (userId: string, over: { name?: string; role?: string; photoURL?: string } = {}) =>
    event('UserRegistered', {
      userId,
      name: userId,
      email: `${userId}@x.test`,
      photoURL: '',
      role: 'Buyer',
      passwordHash: null,
      via: 'google',
      ...over,
    });
  const listed = (productId: string, over: { imageUrl?: string } = {}) =>
    event('ProductListed', {
      productId,
      name: `TV ${productId}`,
      imageUrl: '/api/images/i',
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
      ...over,
    });
  const placed = (
    bookingId: string,
    productId: string,
    over: { productImage?: string; productThumbnail?: string; pricePoisha?: number } = {},
  ) =>
    event('BookingPlaced', {
      bookingId,
      productId,
      productName: `TV ${productId}`,
      productImage: '/api/images/i',
      pricePoisha: 1_000_000,
      buyerId: 'b1',
      buyerName: 'Nusrat',
      buyerEmail: 'b1@x.test',
      phone: '0180',
      meetingLocation: 'Gulshan',
      ...over,
    });
  return { event, user, listed, placed };
}

/** A fresh database holding `log` (each event in a stream of its own) and every read model projected from it, up to `head`. */
export async function projectedDatabase(prefix: string, log: NewEvent[]): Promise<{ db: TestDatabase; reads: ReadModels; head: number }> {
  const db = await createTestDatabase(prefix);
  await PostgresEventStore.migrate(db.pool);
  await migrate(db.pool, 'projections', projectionMigrations);
  const store = new PostgresEventStore(db.pool, { pollIntervalMs: 100 });
  let head = 0;
  try {
    for (const e of log) await store.append(`s-${randomUUID()}`, [e], 'any');
    const projector = await startProjector({ pool: db.pool, store, feed: new InProcessChangeFeed() });
    await projector.caughtUp();
    await projector.stop();
    head = await store.headPosition();
  } finally {
    await store.close();
  }
  return { db, reads: new ReadModels(db.pool), head };
}
