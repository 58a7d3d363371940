import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@tv-shop/contracts';
import { PostgresEventStore } from '@tv-shop/platform';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { listing } from './fixtures';
import { loadProductFacts } from './product-facts';

/** What a booking placed now takes from the product's stream: here, the cover's thumbnail as the listing has it. */
describe("product facts: the cover's thumbnail", () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('product_facts');
    await PostgresEventStore.migrate(db.pool);
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  const meta = { actorId: 's1', actorRole: 'Seller', correlationId: 'c', causationId: null, at: new Date().toISOString() };
  const story = async (productId: string, ...events: { type: string; data: unknown }[]) => {
    await store.append(
      streams.product(productId),
      events.map((e) => ({ ...e, eventId: randomUUID(), metadata: meta })),
      'any',
    );
    return loadProductFacts(store, productId);
  };
  const listed = (productId: string, photos?: { imageUrls: string[]; thumbnailUrls?: string[] }) => ({
    type: 'ProductListed',
    data: { ...listing(productId, 's1'), ...(photos ? { imageUrl: photos.imageUrls[0], ...photos } : {}) },
  });
  const edited = (productId: string, changes: Record<string, unknown>) => ({ type: 'ProductEdited', data: { productId, changes } });

  it('when the listing has a thumbnail for each photo, then the cover’s is the first', async () => {
    const facts = await story('tf-1', listed('tf-1', { imageUrls: ['/p/a', '/p/b'], thumbnailUrls: ['/t/a', '/t/b'] }));
    expect(facts).toMatchObject({ image: '/p/a', thumbnail: '/t/a' });
  });

  it('when the listing has none (the spec’s one photo, an address from elsewhere), then there is none', async () => {
    expect(await story('tf-2', listed('tf-2'))).toMatchObject({ image: '/api/images/x', thumbnail: '' });
  });

  it('when the seller edits the photos, then the thumbnail follows: the new ones’, or none when the new photos came without', async () => {
    const withNew = await story(
      'tf-3',
      listed('tf-3', { imageUrls: ['/p/a'], thumbnailUrls: ['/t/a'] }),
      edited('tf-3', { imageUrl: '/p/c', imageUrls: ['/p/c', '/p/a'], thumbnailUrls: ['/t/c', '/t/a'] }),
    );
    expect(withNew).toMatchObject({ image: '/p/c', thumbnail: '/t/c' });
    const without = await story(
      'tf-4',
      listed('tf-4', { imageUrls: ['/p/a'], thumbnailUrls: ['/t/a'] }),
      edited('tf-4', { imageUrl: '/p/d', imageUrls: ['/p/d'], thumbnailUrls: [] }),
    );
    expect(without).toMatchObject({ image: '/p/d', thumbnail: '' });
    // An edit of something else keeps it; an old edit naming the cover alone leaves the cover without one.
    expect(await story('tf-3', edited('tf-3', { resalePricePoisha: 90_000 }))).toMatchObject({ thumbnail: '/t/c' });
    expect(await story('tf-3', edited('tf-3', { imageUrl: '/p/e' }))).toMatchObject({ image: '/p/e', thumbnail: '' });
  });

  it('counts the edits and, of them, those that changed its terms: not photos put in another order (ADR 0073); as of a position, the events before it', async () => {
    const listedAt = await story('tf-5', listed('tf-5', { imageUrls: ['/p/a', '/p/b'] }));
    expect(listedAt).toMatchObject({ edits: 0, terms: 0, termsEdit: 0, photos: ['/p/a', '/p/b'] });
    const reordered = await story('tf-5', edited('tf-5', { imageUrl: '/p/b', imageUrls: ['/p/b', '/p/a'] }));
    expect(reordered).toMatchObject({ edits: 1, terms: 0, termsEdit: 0, image: '/p/b', photos: ['/p/b', '/p/a'] });
    expect(await story('tf-5', edited('tf-5', { imageUrls: ['/p/b', '/p/c'] }))).toMatchObject({ edits: 2, terms: 1, termsEdit: 2 });
    expect(await story('tf-5', edited('tf-5', { details: 'With its remote' }))).toMatchObject({ edits: 3, terms: 2, termsEdit: 3 });
    // Put in another order again: the terms last changed with the third edit still.
    expect(await story('tf-5', edited('tf-5', { imageUrl: '/p/c', imageUrls: ['/p/c', '/p/b'] }))).toMatchObject({
      edits: 4,
      terms: 2,
      termsEdit: 3,
    });
    // An edit from before several photos names the cover alone: the listing has that one photo
    // then, as catalog folds it too (its decider's spec tells the same story).
    await story('tf-6', listed('tf-6', { imageUrls: ['/p/a', '/p/b', '/p/c'] }), edited('tf-6', { imageUrl: '/p/z' }));
    expect(await story('tf-6', edited('tf-6', { imageUrls: ['/p/z'] }))).toMatchObject({ edits: 2, terms: 1, photos: ['/p/z'] });
    const events = await store.readStream(streams.product('tf-5'));
    expect(await loadProductFacts(store, 'tf-5', events[2]!.position)).toMatchObject({
      edits: 1,
      terms: 0,
      termsEdit: 0,
      photos: ['/p/b', '/p/a'],
    });
  });
});
