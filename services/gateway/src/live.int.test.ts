import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatchUpAnswer, ChangePush, ClientToServerEvents, ServerToClientEvents } from '@tv-shop/contracts';
import { createPool, InProcessChangeFeed, PostgresEventStore, ProjectionRunner } from '@tv-shop/platform';
import { projections } from '@tv-shop/projector';
import { startTestShop, type TestShop } from './testing/harness';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

describe('live updates, read-your-writes, idempotency and the audit log', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ REBUILD_CHECK_MS: '200' });
  });
  afterAll(async () => {
    await shop.stop();
  });
  const open = (token?: string) => shop.socket({ token });

  // How soon is bench:live's and bench:fanout's to measure; a timed test on a busy machine only flakes.
  it('when a seller marks a product sold, then a visitor socket gets the new row', async () => {
    const seller = await shop.signup('Seller');
    const p = await shop.addProduct(seller.token);
    const visitor = await open();
    const res = await shop.call('PUT', `/product/sold_status/${p._id}`, { token: seller.token });
    // The sale's own push: the listing's may come too, as pushes leave one flush after the answer (ADR 0045).
    const sale = (x: ChangePush) => x.entity === 'product' && x.id === p._id && x.position === res.body.position;
    await expect.poll(() => visitor.pushes.find(sale), { timeout: 10_000, interval: 10 }).toBeDefined();
    const push = visitor.pushes.find(sale)!;
    expect(push).toMatchObject({ op: 'upsert', position: res.body.position, row: { _id: p._id, sold: true } });
  });

  it("when two buyers book, then each socket gets only its own booking; the admin's gets both", async () => {
    const seller = await shop.signup('Seller');
    const a = await shop.signup('Buyer');
    const b = await shop.signup('Buyer');
    const admin = await open((await shop.admin()).token);
    const sa = await open(a.token);
    const sb = await open(b.token);
    const p = await shop.addProduct(seller.token);
    const body = { product_id: p._id, phone_number: '01700000000', meeting_location: 'Uttara' };
    const ba = (await shop.call('POST', '/bookings', { token: a.token, body })).body.insertedId;
    const bb = (await shop.call('POST', '/bookings', { token: b.token, body })).body.insertedId;
    await expect
      .poll(
        () =>
          admin.pushes
            .filter((x) => x.entity === 'booking')
            .map((x) => x.id)
            .sort(),
        { timeout: 2000 },
      )
      .toEqual([ba, bb].sort());
    await new Promise((r) => setTimeout(r, 200));
    expect(sa.pushes.filter((x) => x.entity === 'booking').map((x) => x.id)).toEqual([ba]);
    expect(sb.pushes.filter((x) => x.entity === 'booking').map((x) => x.id)).toEqual([bb]);
    expect(sa.pushes.some((x) => x.entity === 'user')).toBe(false);
  });

  it('when a list is read, then it says the log position it reflects, and a new socket is told where its stream starts', async () => {
    const seller = await shop.signup('Seller');
    const res = await shop.call('PUT', `/product/get_advertise/${(await shop.addProduct(seller.token))._id}`, { token: seller.token });
    const list = await shop.call('GET', '/advertise_products');
    expect(Number(list.headers.get('x-position'))).toBeGreaterThanOrEqual(res.body.position);
    const s: Client = connect(shop.url, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    const synced = await new Promise<{ position: number }>((resolve) => s.once('synced', resolve));
    s.disconnect();
    expect(synced.position).toBeGreaterThanOrEqual(res.body.position);
  });

  it('when a socket was away, then catch_up returns what it missed, only what it may see', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const s = await open(buyer.token);
    const since = (await shop.call('GET', '/health', { token: (await shop.admin()).token })).body.head;
    s.socket.disconnect();
    const p = await shop.addProduct(seller.token);
    await shop.call('PUT', `/product/get_advertise/${p._id}`, { token: seller.token });
    const other = await shop.signup('Buyer');
    await shop.call('POST', '/bookings', {
      token: other.token,
      body: { product_id: p._id, phone_number: '01700000000', meeting_location: 'x' },
    });
    s.socket.connect();
    await new Promise((r) => s.socket.once('connect', () => r(null)));
    const caught = await new Promise<{ position: number; changes: ChangePush[] }>((resolve) => s.socket.emit('catch_up', since, resolve));
    const mine = caught.changes.filter((c) => c.entity === 'product' && c.id === p._id);
    expect(mine.map((c) => c.op === 'upsert' && 'advertised' in c.row && c.row.advertised)).toEqual([false, true]);
    expect(caught.changes.some((c) => c.entity === 'booking' || c.entity === 'user')).toBe(false);
    expect(caught.position).toBeGreaterThan(since);
  });

  it('when a write answers, then a read sent at once already shows it (read-your-writes)', async () => {
    const seller = await shop.signup('Seller');
    // The projections' positions are the admin's to see.
    const admin = (await shop.admin()).token;
    for (let i = 0; i < 10; i++) {
      const res = await shop.call('POST', '/products', { token: seller.token, body: shop.productBody({ porduct_name: `TV ${i}` }) });
      const mine = await shop.call('GET', `/seller_products?email=${seller.user.email}`, { token: seller.token });
      expect(mine.body.map((x: { _id: string }) => x._id)).toContain(res.body.insertedId);
      const health = (await shop.call('GET', '/health', { token: admin })).body;
      // Every read model a shopper reads; the admin's event log (audit) is not waited for (awaited: false).
      const behind = (health.projections as { name: string; position: number }[]).filter(
        (p) => p.name !== 'audit' && p.position < res.body.position,
      );
      expect(behind).toEqual([]);
    }
  });

  it('when a write is retried with the same Idempotency-Key, then it lands once and answers the same', async () => {
    const seller = await shop.signup('Seller');
    const headers = { 'Idempotency-Key': `add-tv-${Date.now()}` };
    const body = shop.productBody({ porduct_name: 'Only once' });
    const answers = await Promise.all([1, 2, 3].map(() => shop.call('POST', '/products', { token: seller.token, body, headers })));
    expect(answers.map((a) => [a.status, a.body.detail])).toEqual([
      [201, undefined],
      [201, undefined],
      [201, undefined],
    ]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    // The same fields in another order (a client that builds its JSON from a map) are the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(Object.keys(reordered)).not.toEqual(Object.keys(body));
    const again = await shop.call('POST', '/products', { token: seller.token, body: reordered, headers });
    expect([again.status, again.body]).toEqual([201, answers[0]!.body]);
    const mine = await shop.call('GET', `/seller_products?email=${seller.user.email}`, { token: seller.token });
    expect(mine.body.filter((x: { porduct_name: string }) => x.porduct_name === 'Only once')).toHaveLength(1);
    const booked = async (productId: string) =>
      shop.call('POST', '/bookings', {
        token: buyer.token,
        body: { product_id: productId, phone_number: '01700000000', meeting_location: 'x' },
        headers: { 'Idempotency-Key': 'same-key' },
      });
    const buyer = await shop.signup('Buyer');
    const [p1, p2] = [await shop.addProduct(seller.token), await shop.addProduct(seller.token)];
    const [b1, b2] = [await booked(p1._id), await booked(p2._id)];
    expect([b1.status, b2.status]).toEqual([201, 201]);
    expect(b2.body.insertedId).not.toBe(b1.body.insertedId);
    expect((await shop.call('GET', `/bookings?email=${buyer.user.email}`, { token: buyer.token })).body).toHaveLength(2);
    const other = await shop.call('POST', '/products', {
      token: seller.token,
      body,
      headers: { 'Idempotency-Key': `${headers['Idempotency-Key']}-2` },
    });
    expect(other.body.insertedId).not.toBe(answers[0]!.body.insertedId);
  });

  it('when a whole session is replayed from the store, then every event is there in order, each with its actor', async () => {
    const from = (await shop.call('GET', '/health', { token: (await shop.admin()).token })).body.head;
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const admin = await shop.admin();
    const p = await shop.addProduct(seller.token);
    const bookingId = await shop.book(buyer.token, p._id);
    const intent = (await shop.call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } })).body;
    const confirm = (
      await shop.call('POST', '/payment-sandbox/confirm', {
        body: { clientSecret: intent.clientSecret, card: { number: '4242424242424242', exp_month: 1, exp_year: 2040, cvc: '123' } },
      })
    ).body;
    await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: confirm.paymentIntent.id } });
    const other = await shop.addProduct(seller.token);
    await shop.call('PUT', `/product/add_reported/${other._id}`, { token: buyer.token });
    await shop.call('DELETE', `/product/${other._id}`, { token: admin.token });
    await expect
      .poll(
        async () => ((await shop.call('GET', '/all_products')).body as { _id: string; sold: boolean }[]).find((x) => x._id === p._id)?.sold,
      )
      .toBe(true);

    const pool = createPool(shop.dbUrl, 2);
    const store = new PostgresEventStore(pool);
    const events = await store.readAll(from, 1000);
    await store.close();
    await pool.end();
    expect(events.map((e) => e.type)).toEqual([
      'UserRegistered',
      'UserRegistered',
      // Each listing first takes one of the seller's slots; a sale or removal gives it back (ADR 0035).
      'ListingSlotTaken',
      'ProductListed',
      'BookingPlaced',
      'PaymentIntentCreated',
      // The booking takes the payment before its sale is recorded (ADR 0058).
      'PaymentReceived',
      'ProductMarkedSold',
      'ListingSlotFreed',
      'BookingPaid',
      'ListingSlotTaken',
      'ProductListed',
      'ProductReported',
      'ProductRemoved',
      'ListingSlotFreed',
    ]);
    for (let i = 1; i < events.length; i++) expect(events[i]!.position).toBeGreaterThan(events[i - 1]!.position);
    const actor = (type: string, n = 0) => events.filter((e) => e.type === type)[n]!.metadata;
    expect(actor('ProductListed')).toMatchObject({ actorId: seller.user._id, actorRole: 'Seller' });
    expect(actor('BookingPlaced')).toMatchObject({ actorId: buyer.user._id, actorRole: 'Buyer' });
    expect(actor('BookingPaid')).toMatchObject({ actorId: buyer.user._id, actorRole: 'Buyer' });
    expect(actor('PaymentReceived')).toMatchObject({ actorId: buyer.user._id, correlationId: actor('BookingPaid').correlationId });
    expect(actor('ProductReported')).toMatchObject({ actorId: buyer.user._id, actorRole: 'Buyer' });
    expect(actor('ProductRemoved')).toMatchObject({ actorId: admin.user._id, actorRole: 'Admin' });
    expect(actor('ListingSlotTaken')).toMatchObject({ actorId: seller.user._id, correlationId: actor('ProductListed').correlationId });
    expect(actor('ListingSlotFreed', 1)).toMatchObject({
      actorId: admin.user._id,
      causationId: events.find((e) => e.type === 'ProductRemoved')!.eventId,
    });
    const sold = events.find((e) => e.type === 'ProductMarkedSold')!;
    // The sale is the buyer's payment deciding on the product's stream, in the same correlation.
    expect(sold.metadata).toMatchObject({ actorId: buyer.user._id, actorRole: 'Buyer' });
    expect(sold.data).toMatchObject({ bookingId });
    expect(sold.metadata.correlationId).toBe(events.find((e) => e.type === 'BookingPaid')!.metadata.correlationId);
    for (const e of events) expect(e.metadata.at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  // Last: the floor it leaves stays for the gateway's life (and REBUILD_CHECK_MS is short for it).
  it('when a read model is rebuilt beside the running shop, then every socket is told to read its lists again, and a catch-up from before it says so', async () => {
    const seller = await shop.signup('Seller');
    await shop.addProduct(seller.token);
    const before = Number((await shop.call('GET', '/all_products')).headers.get('X-Position'));
    // A visitor's socket on the default rooms, and one narrowed to views as the web app's are.
    const visitor = await open();
    const viewer = await open();
    await new Promise((resolve) => viewer.socket.emit('views', [{ kind: 'products', filter: {} }], resolve));
    const resyncs: number[][] = [[], []];
    visitor.socket.on('resync', ({ position }) => resyncs[0]!.push(position));
    viewer.socket.on('resync', ({ position }) => resyncs[1]!.push(position));

    // The operator's tool (`npm run projector -- rebuild catalog`): a pool and a feed of its own,
    // its runner standing by while the shop's leads.
    const pool = createPool(shop.dbUrl, 3);
    const store = new PostgresEventStore(pool);
    const rebuild = async (name: string) => {
      const tool = new ProjectionRunner(
        pool,
        store,
        new InProcessChangeFeed(),
        projections.find((p) => p.name === name)!,
      );
      try {
        await tool.start();
        expect((await tool.status()).role).toBe('standby');
        return (await tool.rebuild()).position;
      } finally {
        await tool.stop();
      }
    };
    let rebuiltTo: number;
    try {
      rebuiltTo = await rebuild('catalog');
      // No write needed: the gateway finds the swap in the checkpoints (REBUILD_CHECK_MS) and tells every socket, once.
      await expect.poll(() => resyncs, { timeout: 5000 }).toEqual([[rebuiltTo], [rebuiltTo]]);
      // Another read model rebuilt at the same position is another rebuild: told again.
      expect(await rebuild('orders')).toBe(rebuiltTo);
      await expect
        .poll(() => resyncs, { timeout: 5000 })
        .toEqual([
          [rebuiltTo, rebuiltTo],
          [rebuiltTo, rebuiltTo],
        ]);
    } finally {
      await store.close();
      await pool.end();
    }
    expect(rebuiltTo).toBeGreaterThanOrEqual(before);
    const ask = (since: number) => new Promise<CatchUpAnswer>((resolve) => visitor.socket.emit('catch_up', since, resolve));
    // Changes the rebuild took in were never pushed: a catch-up from before it reads the lists again.
    expect(await ask(before - 1)).toMatchObject({ resync: true });
    expect((await ask(rebuiltTo)).resync).toBeUndefined();
    // And pushes go on as before.
    const next = await shop.addProduct(seller.token);
    await expect.poll(() => visitor.pushes.some((p) => p.id === next._id)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(resyncs).toEqual([
      [rebuiltTo, rebuiltTo],
      [rebuiltTo, rebuiltTo],
    ]);
  });
});
