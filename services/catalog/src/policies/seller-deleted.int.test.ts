import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@tv-shop/contracts';
import { InProcessCommandBus, policyCheckpoint, PostgresEventStore, setCheckpoint } from '@tv-shop/platform';
import { createTestLog, type TestDatabase, type TestLog } from '@tv-shop/platform/testing';
import { startCatalog } from '../module';
import { listing } from '../product/fixtures';
import { catalogProjection } from '../read-model/catalog.projection';

/**
 * Catalog's seller-deleted policy, given a catalog (its bus, its projection) and the log: when a
 * user is deleted, then the events it leaves on product streams.
 */
describe('policy: a deleted seller’s TVs for sale are removed', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let log: TestLog;
  let catalog: Awaited<ReturnType<typeof startCatalog>>;
  const bus = new InProcessCommandBus();
  let n = 0;
  const send = (actorId: string, type: string, aggregateId: string, data: unknown) =>
    bus.send({
      service: 'catalog',
      type,
      aggregateId,
      data,
      commandId: `c-${++n}`,
      actor: { id: actorId, role: 'Seller' },
      correlationId: `k-${n}`,
    });
  // The same id deleted as a buyer, then as a seller: two streams, so each deletion is appended anew.
  const deleteUser = (userId: string, role: 'Seller' | 'Buyer', stream = streams.user(`${userId}-${role}`)) =>
    store.append(
      stream,
      [
        {
          eventId: randomUUID(),
          type: 'UserDeleted',
          data: { userId, email: `${userId}@example.com`, role },
          metadata: { actorId: 'admin', actorRole: 'Admin', correlationId: randomUUID(), causationId: null, at: new Date().toISOString() },
        },
      ],
      'any',
    );
  const eventsOf = async (productId: string) => store.readStream(streams.product(productId));

  beforeAll(async () => {
    log = await createTestLog('seller_deleted', catalogProjection);
    ({ db, store } = log);
    catalog = await startCatalog({ store, bus, pool: db.pool, limits: { active: 0, perHour: 0 } });
    // Given: seller S has p1 for sale and p2 sold; seller T has p3 for sale.
    await send('S', 'ListProduct', 'p1', listing('S', 'p1'));
    await send('S', 'ListProduct', 'p2', listing('S', 'p2'));
    await send('S', 'MarkProductSold', 'p2', { actorId: 'S' });
    await send('T', 'ListProduct', 'p3', listing('T', 'p3'));
  });
  afterAll(async () => {
    await catalog.stop();
    await log.stop();
  });

  it('when a buyer is deleted, then no product changes', async () => {
    await deleteUser('S', 'Buyer');
    await catalog.caughtUp();
    for (const id of ['p1', 'p2', 'p3']) expect((await eventsOf(id)).map((e) => e.type)).not.toContain('ProductRemoved');
  });

  it('when the seller is deleted, then only their TV for sale is removed, for that reason, caused by the deletion', async () => {
    const { position } = await deleteUser('S', 'Seller');
    const deletion = (await store.readAll(position - 1, 1))[0]!;
    await catalog.caughtUp();
    const p1 = await eventsOf('p1');
    expect(p1.at(-1)).toMatchObject({ type: 'ProductRemoved', data: { productId: 'p1', reason: 'seller-deleted' } });
    expect(p1.at(-1)!.metadata).toMatchObject({ causationId: deletion.eventId, actorId: 'system', actorRole: 'System' });
    expect((await eventsOf('p2')).map((e) => e.type)).toEqual(['ProductListed', 'ProductMarkedSold']);
    expect((await eventsOf('p3')).map((e) => e.type)).toEqual(['ProductListed']);
  });

  it('when a listing or a Make Available reaches the log after its seller was deleted (let through a moment before), then it is removed too', async () => {
    await send('U', 'ListProduct', 'p4', listing('U', 'p4'));
    await send('U', 'MarkProductSold', 'p4', { actorId: 'U' });
    await deleteUser('U', 'Seller', streams.user('U'));
    await catalog.caughtUp();
    // Late: stored after the deletion, as a request the gateway had already let in would be.
    await send('U', 'ListProduct', 'p5', listing('U', 'p5'));
    await send('U', 'MarkProductAvailable', 'p4', { actorId: 'U' });
    await catalog.caughtUp();
    await expect.poll(async () => (await eventsOf('p5')).map((e) => e.type)).toEqual(['ProductListed', 'ProductRemoved']);
    await expect
      .poll(async () => (await eventsOf('p4')).map((e) => e.type))
      .toEqual(['ProductListed', 'ProductMarkedSold', 'ProductMarkedAvailable', 'ProductRemoved']);
    expect((await eventsOf('p5')).at(-1)).toMatchObject({ data: { reason: 'seller-deleted' } });
    // Another seller's listing is left alone.
    expect((await eventsOf('p3')).map((e) => e.type)).toEqual(['ProductListed']);
  });

  it('when one of the seller’s listings is refused (gone a moment before), then the others are removed all the same', async () => {
    await send('V', 'ListProduct', 'p6', listing('V', 'p6'));
    await catalog.caughtUp();
    // Rows the read model still shows but the log no longer has for sale (withdrawn or removed in
    // the moment between the policy's read and its command): one sorts before p6 whatever the order.
    const { rows } = await db.pool.query<{ column_name: string }>(
      `select column_name from information_schema.columns
        where table_schema = 'rm_catalog' and table_name = 'products' and is_generated = 'NEVER'`,
    );
    const columns = rows.map((r) => `"${r.column_name}"`).join(', ');
    const copied = rows.map((r) => `r."${r.column_name}"`).join(', ');
    for (const [id, at] of [
      ['a-gone', '1'],
      ['z-gone', '9000000000000000'],
    ])
      await db.pool.query(
        `insert into rm_catalog.products (${columns})
         select ${copied} from rm_catalog.products p,
                jsonb_populate_record(null::rm_catalog.products, to_jsonb(p) || jsonb_build_object('id', $1::text, 'listed_at', $2::text)) r
          where p.id = 'p6'`,
        [id, at],
      );
    await deleteUser('V', 'Seller', streams.user('V'));
    await catalog.caughtUp();
    await expect.poll(async () => (await eventsOf('p6')).map((e) => e.type)).toEqual(['ProductListed', 'ProductRemoved']);
    await db.pool.query(`delete from rm_catalog.products where id in ('a-gone', 'z-gone')`);
  });

  it('when the policy reads the deletion again (a restart from an old checkpoint), then nothing is repeated', async () => {
    await catalog.stop();
    await setCheckpoint(db.pool, policyCheckpoint('catalog'), 0);
    catalog = await startCatalog({ store, bus: new InProcessCommandBus(), pool: db.pool, limits: { active: 0, perHour: 0 } });
    await catalog.caughtUp();
    expect((await eventsOf('p1')).filter((e) => e.type === 'ProductRemoved')).toHaveLength(1);
  });
});
