import { randomUUID } from 'node:crypto';
import type { PushedChange } from '../change-feed/port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeFeed, ChangeNotice } from '../change-feed/port';

const product = (id: string, position: number): PushedChange => ({
  entity: 'product',
  op: 'upsert',
  id,
  position,
  row: {
    _id: id,
    porduct_name: 'Sony Bravia 55" — 4K «used»',
    productImage: 'https://img.example/tv.jpg',
    details: 'Line one\nline two, with "quotes" and ünïcode ✓',
    location: 'Dhaka',
    resale_price: 42000.5,
    orginal_price: 95000,
    use_duration: '3 years',
    seller: 'Rahim',
    sellerEmail: 'rahim@example.com',
    sellerVerified: true,
    post_date: '2026-11-21T10:00:00.000Z',
    phone_number: '+8801700000000',
    product_condition: 'Good',
    category_id: 'c-1',
    category_name: 'Sony',
    sold: false,
    paid_sale: false,
    reported: false,
    advertised: true,
  },
});
const change = (projection: string, push: PushedChange, rooms = ['all']): ChangeNotice => ({ kind: 'change', projection, push, rooms });
const checkpoint = (projection: string, position: number): ChangeNotice => ({ kind: 'checkpoint', projection, position });

/** Long enough for a notice that was going to arrive to have arrived, when asserting that none did. */
const QUIET_MS = 100;
const poll = { timeout: 5000, interval: 10 };

/**
 * The behaviour every change-feed adapter must show. `second`, when given, opens another
 * instance on the same feed, as another process would. The suite closes `feed` and every
 * `second()` instance itself, then calls `dispose`.
 */
export function changeFeedContract(
  name: string,
  open: () => Promise<{ feed: ChangeFeed; second?: () => Promise<ChangeFeed>; dispose(): Promise<void> }>,
) {
  describe(`change feed contract: ${name}`, () => {
    let feed: ChangeFeed;
    let second: (() => Promise<ChangeFeed>) | undefined;
    let dispose: () => Promise<void>;
    const opened: ChangeFeed[] = [];
    beforeAll(async () => {
      ({ feed, second, dispose } = await open());
    });
    afterAll(async () => {
      for (const f of opened) await f.close();
      await feed?.close();
      await dispose?.();
    });

    /** Each test tags its notices with its own projection name, so stragglers from another test never count. */
    const collect = (target: ChangeFeed, projection: string) => {
      const seen: ChangeNotice[] = [];
      const off = target.subscribe((n) => {
        if (n.projection === projection) seen.push(n);
      });
      return { seen, off };
    };

    it('when batches of checkpoint and change notices are published, then a subscriber receives them in order with payloads intact', async () => {
      const p = `p-${randomUUID()}`;
      const { seen, off } = collect(feed, p);
      const first = [
        checkpoint(p, 1),
        change(p, product('prod-1', 2), ['all', 'user:u-1']),
        change(p, { entity: 'booking', op: 'remove', id: 'b-1', position: 3 }, []),
      ];
      const then = [change(p, { entity: 'user', op: 'remove', id: 'u-2', position: 4 }), checkpoint(p, 4)];
      await feed.publish(first);
      await feed.publish(then);
      await expect.poll(() => seen, poll).toEqual([...first, ...then]);
      off();
    });

    it('when two subscribers listen, then both receive every notice', async () => {
      const p = `p-${randomUUID()}`;
      const a = collect(feed, p);
      const b = collect(feed, p);
      const notices = [checkpoint(p, 1), change(p, product('prod-2', 2)), checkpoint(p, 2)];
      await feed.publish(notices);
      await expect.poll(() => a.seen, poll).toEqual(notices);
      await expect.poll(() => b.seen, poll).toEqual(notices);
      a.off();
      b.off();
    });

    it('when a subscriber unsubscribes, then it receives nothing more while the others still do', async () => {
      const p = `p-${randomUUID()}`;
      const leaving = collect(feed, p);
      const staying = collect(feed, p);
      await feed.publish([checkpoint(p, 1)]);
      await expect.poll(() => leaving.seen, poll).toEqual([checkpoint(p, 1)]);
      leaving.off();
      leaving.off(); // a second call is harmless
      await feed.publish([checkpoint(p, 2)]);
      await expect.poll(() => staying.seen, poll).toEqual([checkpoint(p, 1), checkpoint(p, 2)]);
      await new Promise((r) => setTimeout(r, QUIET_MS));
      expect(leaving.seen).toEqual([checkpoint(p, 1)]);
      staying.off();
    });

    it('when a notice is published on one instance, then subscribers of another instance receive it too', async (ctx) => {
      if (!second) return ctx.skip('this adapter has a single instance per feed');
      const other = await second();
      opened.push(other);
      const p = `p-${randomUUID()}`;
      const here = collect(feed, p);
      const there = collect(other, p);
      await feed.publish([change(p, product('prod-3', 1))]);
      await other.publish([checkpoint(p, 1)]);
      // The second publish starts after the first one resolved, so every subscriber sees them in that order.
      await expect.poll(() => here.seen, poll).toEqual([change(p, product('prod-3', 1)), checkpoint(p, 1)]);
      await expect.poll(() => there.seen, poll).toEqual([change(p, product('prod-3', 1)), checkpoint(p, 1)]);
      here.off();
      there.off();
    });

    it('when 1000 notices are published in 50 batches, then all arrive once and in order', async () => {
      const p = `p-${randomUUID()}`;
      const { seen, off } = collect(feed, p);
      const all: ChangeNotice[] = [];
      for (let b = 0; b < 50; b++) {
        const batch = Array.from({ length: 20 }, (_, i) => {
          const position = b * 20 + i + 1;
          return i === 19 ? checkpoint(p, position) : change(p, { entity: 'user', op: 'remove', id: `u-${position}`, position });
        });
        all.push(...batch);
        await feed.publish(batch);
      }
      await expect.poll(() => seen.length, poll).toBe(1000);
      await new Promise((r) => setTimeout(r, QUIET_MS));
      expect(seen).toEqual(all);
      off();
    });
  });
}
