import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@tv-shop/contracts';
import {
  databaseUnavailable,
  InProcessCommandBus,
  migrate,
  PostgresEventStore,
  projectionMigrations,
  type CommandReply,
  type ExpectedVersion,
  type NewEvent,
} from '@tv-shop/platform';
import { createTestDatabase, createTestLog, type TestDatabase, type TestLog } from '@tv-shop/platform/testing';
import { startCatalog } from '../module';
import { listing } from '../product/fixtures';
import { catalogProjection } from '../read-model/catalog.projection';
import { SLOT_CHECK_EVERY_MS, SLOT_GRACE_MS } from './slots';

/** The store, except that the next append to a product stream fails: the process "dies" between the slot and the listing. */
class StoreFailingNextListing extends PostgresEventStore {
  failNext = false;
  override async append(streamId: string, events: NewEvent[], expected: ExpectedVersion) {
    if (this.failNext && streamId.startsWith('product-')) {
      this.failNext = false;
      throw databaseUnavailable();
    }
    return super.append(streamId, events, expected);
  }
}

/**
 * Catalog's listing limits on its own bus, with a clock of the test's: what each command leaves
 * on the seller's stream and the product's. The HTTP surface is in the gateway's listing-limits test.
 */
describe('listing slots around catalog’s product commands', () => {
  let db: TestDatabase;
  let store: StoreFailingNextListing;
  let stop: () => Promise<void>;
  let log: TestLog<StoreFailingNextListing>;
  const bus = new InProcessCommandBus();
  let clock = Date.parse('2026-11-21T10:00:00.000Z');
  const tick = (ms: number) => (clock += ms);

  beforeAll(async () => {
    log = await createTestLog('slots', catalogProjection, (pool) => new StoreFailingNextListing(pool, { pollIntervalMs: 200 }));
    ({ db, store } = log);
    stop = (await startCatalog({ store, bus, pool: db.pool, now: () => new Date(clock), limits: { active: 3, perHour: 4 } })).stop;
  });
  afterAll(async () => {
    await stop();
    await log.stop();
  });

  const send = (type: string, aggregateId: string, data: unknown, actor: { id: string; role: string }, commandId = randomUUID()) =>
    bus.send({ service: 'catalog', type, aggregateId, data, actor, commandId, correlationId: commandId });
  const list = (sellerId: string, actor = { id: sellerId, role: 'Seller' }, productId: string = randomUUID()) =>
    send('ListProduct', productId, listing(sellerId, productId), actor).then((reply) => ({ reply, productId }));
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (err: unknown) => err,
    );
  const slotEvents = async (sellerId: string) =>
    (await store.readStream(streams.sellerListings(sellerId))).map((e) => `${e.type}:${(e.data as { productId: string }).productId}`);
  const newSeller = () => ({ id: randomUUID(), role: 'Seller' });

  it('when a seller is at the active limit, then the next listing is refused with 429 and nothing is appended anywhere', async () => {
    const seller = newSeller();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await list(seller.id)).productId);
    expect(await slotEvents(seller.id)).toEqual(ids.map((id) => `ListingSlotTaken:${id}`));
    const head = await store.headPosition();
    const productId = randomUUID();
    const err = await refusal(list(seller.id, seller, productId));
    expect(err).toMatchObject({ kind: 'too_many_requests', status: 429, field: 'active_listings', retryAfter: 3600 });
    expect(await store.headPosition()).toBe(head);
    expect(await store.readStream(streams.product(productId))).toEqual([]);
  });

  it('when the admin or the shop itself lists for a seller, then nothing is refused, but each TV holds the seller’s slot', async () => {
    const seller = newSeller();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await list(seller.id, { id: 'admin-1', role: 'Admin' })).productId);
    ids.push((await list(seller.id, { id: 'system', role: 'System' })).productId);
    expect(await slotEvents(seller.id)).toEqual(ids.map((id) => `ListingSlotTaken:${id}`));
    // Five for sale against a limit of three: the seller's own next listing waits for sales.
    expect(await refusal(list(seller.id))).toMatchObject({ field: 'active_listings' });
    for (const id of ids.slice(0, 3)) await send('MarkProductSold', id, { actorId: seller.id }, seller);
    await list(seller.id);
  });

  it('when the same listing is sent again with its command id at the limit, then it answers as the first time: no second slot, no refusal', async () => {
    const seller = newSeller();
    await list(seller.id);
    await list(seller.id);
    const productId = randomUUID();
    const commandId = randomUUID();
    const first = await send('ListProduct', productId, listing(seller.id, productId), seller, commandId);
    const again = await send('ListProduct', productId, listing(seller.id, productId), seller, commandId);
    expect(again).toEqual(first);
    expect((await slotEvents(seller.id)).filter((e) => e.endsWith(productId))).toEqual([`ListingSlotTaken:${productId}`]);
  });

  it('when a listing is refused for its price or its category, then it spends no slot', async () => {
    const seller = newSeller();
    const bad = randomUUID();
    await expect(send('ListProduct', bad, listing(seller.id, bad, { resalePricePoisha: 0 }), seller)).rejects.toMatchObject({
      kind: 'validation',
    });
    await expect(send('ListProduct', bad, listing(seller.id, bad, { categoryId: 'no-such' }), seller)).rejects.toMatchObject({
      kind: 'validation',
      field: 'category_id',
    });
    expect(await slotEvents(seller.id)).toEqual([]);
  });

  it('when TVs are sold by the seller, paid for by a buyer or removed by the admin, then each frees its slot at once', async () => {
    const seller = newSeller();
    const [a, b, c] = [(await list(seller.id)).productId, (await list(seller.id)).productId, (await list(seller.id)).productId];
    await send('MarkProductSold', a, { actorId: seller.id }, seller);
    await send('RecordSale', b, { bookingId: randomUUID(), buyerName: 'Nila' }, { id: 'system', role: 'System' });
    await send('RemoveProduct', c, { reason: 'admin' }, { id: 'admin-1', role: 'Admin' });
    const freed = (await store.readStream(streams.sellerListings(seller.id))).filter((e) => e.type === 'ListingSlotFreed');
    expect(freed.map((e) => e.data)).toEqual([
      { sellerId: seller.id, productId: a, reason: 'sold' },
      { sellerId: seller.id, productId: b, reason: 'sold' },
      { sellerId: seller.id, productId: c, reason: 'removed' },
    ]);
    // Each names the product event that freed it.
    expect(freed[0]!.metadata.causationId).toBe((await store.readStream(streams.product(a)))[1]!.eventId);
  });

  it('when a sold TV is made available again, then it takes its slot back; at the limit that is refused and the TV stays sold', async () => {
    clock += 2 * 60 * 60_000; // A new hour, so only the active limit is in play.
    const seller = newSeller();
    const first = (await list(seller.id)).productId;
    const sale = randomUUID();
    await send('MarkProductSold', first, { actorId: seller.id }, seller, sale);
    const back = randomUUID();
    const answer = await send('MarkProductAvailable', first, { actorId: seller.id }, seller, back);
    expect((await slotEvents(seller.id)).slice(-1)).toEqual([`ListingSlotTaken:${first}`]);
    // Sent again with its command id, it answers as the first time (not "already available").
    expect(await send('MarkProductAvailable', first, { actorId: seller.id }, seller, back)).toEqual(answer);
    // A late retry of the sale answers as the first time, and the TV now for sale keeps its slot.
    await send('MarkProductSold', first, { actorId: seller.id }, seller, sale);
    expect((await slotEvents(seller.id)).slice(-1)).toEqual([`ListingSlotTaken:${first}`]);
    await send('MarkProductSold', first, { actorId: seller.id }, seller);
    for (let i = 0; i < 3; i++) await list(seller.id);
    const head = await store.headPosition();
    const err = await refusal(send('MarkProductAvailable', first, { actorId: seller.id }, seller));
    expect(err).toMatchObject({ status: 429, field: 'active_listings' });
    expect((err as Error).message).toMatch(/before making another available/);
    expect(await store.headPosition()).toBe(head);
    // A command whose actorId is not its sender's account is refused before anything is read or
    // written, whoever of the two owns the TV (catalog's module; the log would name the sender).
    await expect(send('MarkProductAvailable', first, { actorId: 'someone-else' }, seller)).rejects.toMatchObject({
      kind: 'forbidden',
      message: expect.stringMatching(/someone other than who sent it/),
    });
    await expect(send('MarkProductAvailable', first, { actorId: seller.id }, { id: 'someone-else', role: 'Seller' })).rejects.toMatchObject(
      {
        kind: 'forbidden',
        message: expect.stringMatching(/someone other than who sent it/),
      },
    );
    expect(await store.headPosition()).toBe(head);
    // Another seller asking in their own name gets the product's refusal, taking nothing.
    await expect(
      send('MarkProductAvailable', first, { actorId: 'someone-else' }, { id: 'someone-else', role: 'Seller' }),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      message: expect.stringMatching(/Only the seller/),
    });
    expect(await store.headPosition()).toBe(head);
  });

  it('when the hour’s limit is reached, then Retry-After counts to when the oldest leaves the hour, and then the seller may list again', async () => {
    clock += 2 * 60 * 60_000;
    const seller = newSeller();
    const a = (await list(seller.id)).productId;
    tick(10 * 60_000);
    const b = (await list(seller.id)).productId;
    await list(seller.id);
    await send('MarkProductSold', a, { actorId: seller.id }, seller);
    await send('RemoveProduct', b, { reason: 'admin' }, { id: 'admin-1', role: 'Admin' });
    await list(seller.id);
    tick(5 * 60_000);
    // Two for sale, four added this hour: a sale or removal frees a slot, not the hour.
    expect(await refusal(list(seller.id))).toMatchObject({ field: 'listings_per_hour', retryAfter: 45 * 60 });
    tick(45 * 60_000 + 1000);
    await list(seller.id);
  });

  it('when the process dies between the slot and the listing, then a retry with the same command id reuses the slot; never retried, the slot is freed once the seller is at the limit', async () => {
    clock += 2 * 60 * 60_000;
    const seller = newSeller();
    const productId = randomUUID();
    const commandId = randomUUID();
    store.failNext = true;
    await expect(send('ListProduct', productId, listing(seller.id, productId), seller, commandId)).rejects.toMatchObject({ status: 503 });
    expect(await slotEvents(seller.id)).toEqual([`ListingSlotTaken:${productId}`]);
    const retried: CommandReply = await send('ListProduct', productId, listing(seller.id, productId), seller, commandId);
    expect(retried.result).toMatchObject({ productId, changed: true });
    expect(await slotEvents(seller.id)).toEqual([`ListingSlotTaken:${productId}`]);

    const lost = randomUUID();
    store.failNext = true;
    await expect(list(seller.id, seller, lost)).rejects.toMatchObject({ status: 503 });
    await list(seller.id);
    // Three slots, two TVs for sale: within the grace the lost one may still be on its way, so it counts.
    tick(SLOT_GRACE_MS - 1000);
    expect(await refusal(list(seller.id))).toMatchObject({ field: 'active_listings' });
    // Past it, the slots are checked against the products, but not twice within the check's minute.
    tick(2000);
    expect(await refusal(list(seller.id))).toMatchObject({ field: 'active_listings' });
    tick(SLOT_CHECK_EVERY_MS);
    await list(seller.id);
    const events = await store.readStream(streams.sellerListings(seller.id));
    expect(events.filter((e) => e.type === 'ListingSlotFreed').map((e) => e.data)).toEqual([
      { sellerId: seller.id, productId: lost, reason: 'not-for-sale' },
    ]);
  });
});

describe('listing limits off', () => {
  it('when both limits are 0, then a seller lists past any number and no seller stream is written', async () => {
    const db = await createTestDatabase('slots_off');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    const store = new PostgresEventStore(db.pool, { pollIntervalMs: 200 });
    const bus = new InProcessCommandBus();
    const catalog = await startCatalog({ store, bus, pool: db.pool, limits: { active: 0, perHour: 0 } });
    try {
      for (let i = 0; i < 5; i++) {
        const productId = randomUUID();
        const commandId = randomUUID();
        const actor = { id: 's-off', role: 'Seller' };
        await bus.send({
          service: 'catalog',
          type: 'ListProduct',
          aggregateId: productId,
          data: listing('s-off', productId),
          actor,
          commandId,
          correlationId: commandId,
        });
      }
      expect(await store.readStream(streams.sellerListings('s-off'))).toEqual([]);
    } finally {
      await catalog.stop();
      await store.close();
      await db.drop();
    }
  });
});
