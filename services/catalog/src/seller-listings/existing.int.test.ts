import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@tv-shop/contracts';
import { AppError, InProcessCommandBus, PostgresEventStore, waitForCheckpoint } from '@tv-shop/platform';
import { createTestLog, type TestDatabase, type TestLog } from '@tv-shop/platform/testing';
import { startCatalog } from '../module';
import { listing } from '../product/fixtures';
import { catalogProjection } from '../read-model/catalog.projection';

/**
 * A seller who listed before the limits existed (the flood ADR 0035 answers): when the limits
 * come in, the TVs they already have for sale count, so they cannot add the limit on top.
 */
describe('listing slots of a seller who listed before the limits', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let log: TestLog;
  let n = 0;
  const send = (bus: InProcessCommandBus, actorId: string, type: string, aggregateId: string, data: unknown) =>
    bus.send({
      service: 'catalog',
      type,
      aggregateId,
      data,
      commandId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
      actor: { id: actorId, role: 'Seller' },
      correlationId: `k-${n}`,
    });

  beforeAll(async () => {
    log = await createTestLog('slots_existing', catalogProjection);
    ({ db, store } = log);
  });
  afterAll(async () => {
    await log.stop();
  });

  it('given three TVs listed with no limits, when the limit of three comes in, then the next is refused, and a sale makes room', async () => {
    const before = new InProcessCommandBus();
    const old = await startCatalog({ store, bus: before, pool: db.pool, limits: { active: 0, perHour: 0 } });
    for (const id of ['e1', 'e2', 'e3']) await send(before, 'S', 'ListProduct', id, listing('S', id));
    await old.stop();
    expect(await store.readStream(streams.sellerListings('S'))).toEqual([]);
    await waitForCheckpoint(db.pool, catalogProjection.name, await store.headPosition());

    const bus = new InProcessCommandBus();
    const catalog = await startCatalog({ store, bus, pool: db.pool, limits: { active: 3, perHour: 10 } });
    try {
      const refused = await send(bus, 'S', 'ListProduct', 'e4', listing('S', 'e4')).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ kind: 'too_many_requests', field: 'active_listings' });
      expect(await store.readStream(streams.product('e4'))).toEqual([]);
      const slots = await store.readStream(streams.sellerListings('S'));
      expect(slots.map((e) => [e.type, (e.data as { productId: string; reason: string }).reason]).sort()).toEqual([
        ['ListingSlotTaken', 'existing'],
        ['ListingSlotTaken', 'existing'],
        ['ListingSlotTaken', 'existing'],
      ]);

      await send(bus, 'S', 'MarkProductSold', 'e1', { actorId: 'S' });
      await send(bus, 'S', 'ListProduct', 'e4', listing('S', 'e4'));
      expect((await store.readStream(streams.product('e4'))).map((e) => e.type)).toEqual(['ProductListed']);
      // Another seller, new, lists as usual.
      await send(bus, 'T', 'ListProduct', 't1', listing('T', 't1'));
    } finally {
      await catalog.stop();
    }
  });
});
