import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms } from '@tv-shop/contracts';
import { createTestDatabase, createTestLog, projectionSpec, type TestDatabase } from '@tv-shop/platform/testing';
import { auditProjection } from './audit.projection';
import { AuditQueries } from './queries';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('audit_rm');
});
afterAll(async () => {
  await db.drop();
});
const given = projectionSpec(auditProjection, () => db.pool);

const registered = (userId: string, name: string) => ({
  type: 'UserRegistered',
  streamId: `user-${userId}`,
  data: { userId, name, email: `${userId}@x.test`, photoURL: '', role: 'Buyer', passwordHash: '$scrypt$abc', via: 'password' },
});
const DAY = 'select day::text, listings, bookings, payments, paid_poisha::int as paid, reports from daily order by day';
const now = () => new Date().toISOString();

describe('audit projection (rm_audit, checkpoint "audit")', () => {
  it('copies every event once, its own handler or not, with secret-looking keys hidden at any depth', async () => {
    const outcome = await given()
      .when({ type: 'CategoryAdded', streamId: 'category-lg', data: { categoryId: 'lg' } }, registered('u1', 'Nadia'), {
        type: 'SomethingNew',
        streamId: 'thing-1',
        data: { nested: { apiKey: 'k-1', cardNumber: '4242', fine: 'yes' }, list: [{ token: 't' }] },
      })
      .outcome();
    const rows = (await outcome.rows('select position::int, type, data from events order by position')) as { data: unknown }[];
    expect(rows).toEqual([
      { position: 1, type: 'CategoryAdded', data: { categoryId: 'lg' } },
      { position: 2, type: 'UserRegistered', data: expect.objectContaining({ passwordHash: '[hidden]', name: 'Nadia' }) },
      {
        position: 3,
        type: 'SomethingNew',
        data: { nested: { apiKey: '[hidden]', cardNumber: '[hidden]', fine: 'yes' }, list: [{ token: '[hidden]' }] },
      },
    ]);
  });

  it('keeps an account’s name after it is renamed and after it is deleted: the audit must still say who', async () => {
    await given(registered('u1', 'Nadia'))
      .when(
        { type: 'UserProfileUpdated', data: { userId: 'u1', name: 'Nadia Rahman', photoURL: '' } },
        { type: 'UserDeleted', data: { userId: 'u1', email: 'u1@x.test', role: 'Buyer' } },
      )
      .then({ rows: { 'select id, name, email from actors': [{ id: 'u1', name: 'Nadia Rahman', email: 'u1@x.test' }] } });
  });

  it('counts each UTC day’s listings, bookings, payments and reports; a refund (of a payment that bought nothing) takes nothing off', async () => {
    await given()
      .when(
        { type: 'ProductListed', at: '2026-11-21T23:59:00Z', data: { productId: 'p1' } },
        { type: 'ProductListed', at: '2026-11-22T00:01:00+06:00', data: { productId: 'p2' } },
        { type: 'BookingPlaced', at: '2026-11-22T08:00:00Z', data: { bookingId: 'b1' } },
        { type: 'BookingPaid', at: '2026-11-22T08:05:00Z', data: { bookingId: 'b1', amountPoisha: 2_500_000 } },
        { type: 'BookingPaid', at: '2026-11-22T09:00:00Z', data: { bookingId: 'b2', amountPoisha: 1_000_000 } },
        // Another buyer of b2's TV lost the race: their money went back, and was never counted.
        { type: 'PaymentRefunded', at: '2026-11-22T09:01:00Z', data: { bookingId: 'b3', amountPoisha: 1_000_000 } },
        { type: 'ProductReported', at: '2026-11-22T10:00:00Z', data: { productId: 'p1', reporterId: 'u1' } },
      )
      .then({
        rows: {
          [DAY]: [
            // 00:01 in Dhaka is 18:01 UTC the day before.
            { day: '2026-11-21', listings: 2, bookings: 0, payments: 0, paid: 0, reports: 0 },
            { day: '2026-11-22', listings: 0, bookings: 1, payments: 2, paid: 3_500_000, reports: 1 },
          ],
        },
      });
  });

  it('keeps the log’s clock: each event’s log_at is the latest time stored up to it, across batches and one at a time', async () => {
    const at = (s: number) => ({ type: 'CategoryAdded', at: `2026-11-30T10:00:0${s}Z`, data: { categoryId: `c${s}` } });
    const clock = "select position::int, to_char(log_at at time zone 'UTC', 'SS') as s from events order by position";
    // The 3 s event is a straggler: its append waited for its position behind the 5 s one.
    const together = await given(at(0), at(5)).whenTogether(at(3), at(6)).outcome();
    const oneByOne = await given(at(0), at(5)).when(at(3), at(6)).outcome();
    const fromEmpty = await given().whenTogether(at(0), at(5), at(3), at(6)).outcome();
    for (const outcome of [together, oneByOne, fromEmpty])
      expect(await outcome.rows(clock)).toEqual([
        { position: 1, s: '00' },
        { position: 2, s: '05' },
        { position: 3, s: '05' },
        { position: 4, s: '06' },
      ]);
    expect(await together.rows("select to_char(log_at at time zone 'UTC', 'SS') as s from clock")).toEqual([{ s: '06' }]);
  });

  it('pushes a fresh event and its day to the admins only', async () => {
    const at = now();
    const outcome = await given(registered('s1', 'Karim'))
      .when({ type: 'ProductListed', at, streamId: 'product-p1', data: { productId: 'p1' } })
      .outcome();
    const day = at.slice(0, 10);
    // The event's line, then its day's figures (the batch form pushes each day once, after its events).
    expect(outcome.pushes.map((p) => [p.push.entity, p.push.id, p.rooms])).toEqual([
      ['log_event', '2', [rooms.admins]],
      ['daily_activity', day, [rooms.admins]],
    ]);
    expect(outcome.pushes[0]!.push.row).toMatchObject({ type: 'ProductListed', streamId: 'product-p1', actor: { id: 'spec', name: null } });
  });

  it('catching up on old events, pushes only the batch’s newest, so a watching page sees the positions it was not sent', async () => {
    const at = now();
    const old = (n: number) => ({
      type: 'ProductListed',
      at: `2024-01-0${n}T00:00:00Z`,
      streamId: `product-o${n}`,
      data: { productId: `o${n}` },
    });
    // Old events only (the projector was stopped for a while): their newest and its day (a page
    // watching sees the positions before it skipped, or a day older than its own, and reads again).
    const caughtUp = await given(registered('s1', 'Karim')).whenTogether(old(1), old(2), old(3)).outcome();
    expect(caughtUp.pushes.map((p) => [p.push.entity, p.push.id, p.push.position])).toEqual([
      ['log_event', '4', 4],
      ['daily_activity', '2024-01-03', 4],
    ]);
    // Old and fresh together: every fresh event, and the newest whatever its age, each day once.
    const mixed = await given()
      .whenTogether(old(1), { type: 'ProductListed', at, streamId: 'product-p1', data: { productId: 'p1' } }, old(2), old(3))
      .outcome();
    expect(mixed.pushes.map((p) => [p.push.entity, p.push.id, p.push.position])).toEqual([
      ['log_event', '2', 2],
      ['log_event', '4', 4],
      ['daily_activity', at.slice(0, 10), 2],
      ['daily_activity', '2024-01-03', 4],
    ]);
  });
});

describe('the event log queries', () => {
  it('read the whole filtered log a page at a time, each event once and in order', async () => {
    const log = await createTestLog('audit_q', auditProjection);
    try {
      const meta = { actorId: 'a1', actorRole: 'Seller', correlationId: 'c1', causationId: null, at: now() };
      for (let i = 0; i < 7; i++)
        await log.store.append(
          `product-p${i}`,
          [
            {
              eventId: crypto.randomUUID(),
              type: i % 2 ? 'ProductListed' : 'ProductAdvertised',
              data: { productId: `p${i}` },
              metadata: meta,
            },
          ],
          'any',
        );
      const head = await log.store.headPosition();
      const queries = new AuditQueries(log.db.pool);
      for (let i = 0; i < 100 && (await queries.head()) < head; i++) await new Promise((r) => setTimeout(r, 50));
      const pages: number[][] = [];
      for await (const page of queries.all({ type: 'ProductListed' }, 2))
        pages.push(page.map((e) => Number(String(e.data.productId).slice(1))));
      expect(pages).toEqual([[1, 3], [5]]);
      const everything = [];
      for await (const page of queries.all({}, 3)) everything.push(...page.map((e) => e.position));
      expect(everything).toEqual([1, 2, 3, 4, 5, 6, 7]);

      // A window is a range of positions; one with no events, or before or after every event, is empty.
      const window = async (from?: string, to?: string) =>
        (await queries.page({ order: 'asc', limit: 50, ...(from ? { from } : {}), ...(to ? { to } : {}) })).events.map((e) => e.position);
      expect(await window(meta.at)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await window(undefined, '2000-01-01T00:00:00.000Z')).toEqual([]);
      expect(await window('2999-01-01T00:00:00.000Z')).toEqual([]);
      expect(await window('2000-01-01T00:00:00.000Z', '2000-01-02T00:00:00.000Z')).toEqual([]);
      // Tables made before the log's clock (an upgrade's rebuild not yet swapped in): filtered on the stored time.
      // (Nothing more is appended, so the running projection writes nothing meanwhile.)
      await log.db.pool.query('alter table rm_audit.events drop column log_at');
      expect(await window(meta.at, new Date().toISOString())).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await window('2999-01-01T00:00:00.000Z')).toEqual([]);
    } finally {
      await log.stop();
    }
  });
});
