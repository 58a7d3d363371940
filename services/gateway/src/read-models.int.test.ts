import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '@tv-shop/platform/testing';
import type { ReadModels } from './read-models';
import { handWrittenLog, projectedDatabase } from './testing/log';

/**
 * The two reads that need two services' read models (reporters' names, whether a booked TV is
 * still for sale) compose the services' queries; they must answer exactly what the one SQL
 * statement joining both schemas answered before, which this file keeps as the reference.
 */
const before = {
  reports: `select r.product_id, coalesce(nullif(r.by_name, ''), u.name, '') as by_name, r.reason, r.at
     from rm_catalog.reports r join rm_catalog.products p on p.id = r.product_id
     left join rm_identity.users u on u.id = r.reporter_id
     where p.reported order by r.at`,
  openAtPrice: `select b.id from rm_orders.bookings b join rm_catalog.products p on p.id = b.product_id
     where b.buyer_id = $1 and b.price_poisha = $2 and not b.paid and not b.cancelled and not p.sold`,
};

const { event, user, listed, placed } = handWrittenLog();

describe('ReadModels: reads across two services answer as the joined query did', () => {
  let db: TestDatabase;
  let reads: ReadModels;
  let head: number;
  beforeAll(async () => {
    ({ db, reads, head } = await projectedDatabase('read_models', [
      user('s1', { name: 'Karim', role: 'Seller' }),
      user('b1', { name: 'Nusrat' }),
      user('b2', { name: 'Rafi' }),
      ...['p1', 'p2', 'p3', 'p4', 'p5'].map((p) => listed(p)),
      event('ProductReported', { productId: 'p1', reporterId: 'b1', reporterName: 'Nusrat then', reason: 'Fake photos' }),
      // From before names and reasons were recorded: the reporter's current name shows.
      event('ProductReported', { productId: 'p1', reporterId: 'b2' }),
      event('ProductReported', { productId: 'p2', reporterId: 'b2' }),
      // Nobody by that id in identity's read model: an empty name.
      event('ProductReported', { productId: 'p2', reporterId: 'ghost', reason: 'why' }),
      event('ProductReported', { productId: 'p5', reporterId: 'b1', reporterName: 'Nusrat', reason: 'gone' }),
      event('ProductRemoved', { productId: 'p5', reason: 'reported' }),
      event('UserProfileUpdated', { userId: 'b2', name: 'Rafi Renamed', photoURL: '' }),
      // A deleted user's old reports keep their current name.
      event('UserDeleted', { userId: 'b2', email: 'b2@x.test', role: 'Buyer' }),
      placed('bk1', 'p1', { pricePoisha: 1_000_000 }),
      placed('bk2', 'p2', { pricePoisha: 1_000_000 }),
      placed('bk3', 'p3', { pricePoisha: 1_000_000 }),
      placed('bk4', 'p4', { pricePoisha: 1_000_000 }),
      placed('bk5', 'p1', { pricePoisha: 900_000 }),
      placed('bk6', 'p2', { pricePoisha: 1_000_000 }),
      placed('bk7', 'gone', { pricePoisha: 1_000_000 }),
      event('ProductMarkedSold', { productId: 'p3' }),
      event('ProductRemoved', { productId: 'p4', reason: 'admin' }),
      event('BookingCancelled', { bookingId: 'bk6', productId: 'p2', reason: 'product-sold' }),
    ]));
  });
  afterAll(async () => {
    await db.drop();
  });

  it('reported products carry the reports as the join named them, oldest first', async () => {
    const answer = await reads.reportedProducts();
    const { rows } = await db.pool.query<{ product_id: string; by_name: string; reason: string; at: Date }>(before.reports);
    const reference = answer.map((p) => ({
      ...p,
      reports: rows.filter((r) => r.product_id === p._id).map((r) => ({ by_name: r.by_name, reason: r.reason, at: r.at.toISOString() })),
    }));
    expect(answer).toEqual(reference);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(reference));
    expect(answer.map((p) => [p._id, p.reports.map((r) => r.by_name)])).toEqual([
      ['p2', ['Rafi Renamed', '']],
      ['p1', ['Nusrat then', 'Rafi Renamed']],
    ]);
  });

  it("the booking a `{ price }` payment means: the buyer's one open booking at that price whose TV is still listed and unsold", async () => {
    for (const [buyer, price] of [
      ['b1', 1_000_000],
      ['b1', 900_000],
      ['b1', 1],
      ['b2', 1_000_000],
    ] as const) {
      const { rows } = await db.pool.query<{ id: string }>(before.openAtPrice, [buyer, price]);
      const asked = reads.bookingToPayAt(buyer, price / 100);
      if (rows.length === 1) await expect(asked).resolves.toBe(rows[0]!.id);
      else
        await expect(asked).rejects.toMatchObject({
          status: 422,
          field: 'bookingId',
          message: rows.length ? /several/ : /no open booking/,
        });
    }
    // bk1 and bk2 (p3 is sold, p4 removed, bk6 cancelled, bk7's product never listed): which one is not for the read model to guess.
    await expect(reads.bookingToPayAt('b1', 10_000)).rejects.toMatchObject({ status: 422, message: /several open bookings/ });
    await expect(reads.bookingToPayAt('b1', '9000')).resolves.toBe('bk5');
    await expect(reads.bookingToPayAt('b1', 'cheap')).rejects.toMatchObject({
      status: 422,
      message: 'Say which booking to pay (bookingId)',
    });
  });

  it('projection positions: each read model by its checkpoint name', async () => {
    const positions = await reads.projectionPositions();
    expect(Object.keys(positions).sort()).toEqual(['audit', 'catalog', 'orders', 'users']);
    expect(new Set(Object.values(positions))).toEqual(new Set([head]));
  });
});
