import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rooms,
  type CatchUpAnswer,
  type ChangePush,
  type ClientToServerEvents,
  type Product,
  type ServerToClientEvents,
  type View,
  type ViewsAnswer,
} from '@tv-shop/contracts';
import { startTestShop, type TestShop } from './testing/harness';
import { decide, RecentChanges, route, viewCatchUpPage, viewKeys } from './views';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const product = (id: string, over: Partial<Product> = {}): Product => ({
  _id: id,
  porduct_name: 'TV',
  productImage: '',
  productImages: [],
  productThumbnails: [],
  details: '',
  location: 'Dhaka',
  resale_price: 100,
  orginal_price: 200,
  use_duration: '1 year',
  seller: 'S',
  sellerId: 's',
  sellerEmail: 's@x.co',
  sellerVerified: false,
  post_date: '',
  phone_number: '',
  product_condition: 'Good',
  category_id: 'sony',
  category_name: 'Sony',
  sold: false,
  paid_sale: false,
  reported: false,
  advertised: false,
  listedAt: 1,
  edits: 0,
  ...over,
});

describe('routing a change to views (unit)', () => {
  const all: View = { kind: 'products', filter: { sold: 'false' } };
  const lg: View = { kind: 'products', filter: { category: 'lg', sold: 'false' } };
  const sony: View = { kind: 'products', filter: { category: 'sony', sold: 'false' } };
  const page: View = { kind: 'product', id: 'p1' };

  it('given a listing in one category, then only views of that category (and All Products) get it', () => {
    const r = route({ entity: 'product', op: 'upsert', id: 'p1', row: product('p1'), position: 5 }, ['all']);
    expect(decide([sony], r)).toEqual(r.push);
    expect(decide([all], r)).toEqual(r.push);
    expect(decide([lg], r)).toBeNull();
  });

  it('given a sale, then a for-sale view gets a removal, the product page the row, and the routing never reaches a browser', () => {
    const sold = product('p1', { sold: true });
    const r = route({ entity: 'product', op: 'upsert', id: 'p1', row: sold, position: 6, route: { was: { sold: false } } }, ['all']);
    expect(r.push).not.toHaveProperty('route');
    expect(decide([sony], r)).toEqual({ entity: 'product', op: 'remove', id: 'p1', position: 6, sellerId: 's' });
    expect(decide([page], r)).toEqual(r.push);
    // A page showing both (the product and the category) keeps the row: it is still on one of them.
    expect(decide([sony, page], r)).toEqual(r.push);
    expect(decide([lg], r)).toBeNull();
  });

  it("given a listing taken off the shop, then its seller's account view gets the removal, wherever they are; no other account, and no other change of it (ADR 0070)", () => {
    const own: View = { kind: 'account', userId: 's' };
    expect(viewKeys(own)).toContain('seller:s');
    const was = product('p1', { category_id: 'lg' });
    const removed = route({ entity: 'product', op: 'remove', id: 'p1', position: 8, route: { was } }, ['all']);
    expect(decide([own], removed)).toEqual({ entity: 'product', op: 'remove', id: 'p1', position: 8, sellerId: 's' });
    expect(decide([{ kind: 'account', userId: 'other' }], removed)).toBeNull();
    const edited = route({ entity: 'product', op: 'upsert', id: 'p1', row: was, position: 9 }, ['all']);
    expect(decide([own], edited)).toBeNull();
    const sold = route(
      { entity: 'product', op: 'upsert', id: 'p1', row: product('p1', { sold: true }), position: 10, route: { was: { sold: false } } },
      ['all'],
    );
    expect(decide([own], sold)).toBeNull();
  });

  it('given a first report of an advertised listing, then the advertised view gets a removal and its page the row; its dismissal, the row again (ADR 0077)', () => {
    const ads: View = { kind: 'advertised' };
    const reported = route(
      {
        entity: 'product',
        op: 'upsert',
        id: 'p1',
        row: product('p1', { advertised: true, reported: true }),
        position: 7,
        route: { was: { reported: false } },
      },
      ['all'],
    );
    expect(decide([ads], reported)).toEqual({ entity: 'product', op: 'remove', id: 'p1', position: 7, sellerId: 's' });
    expect(decide([page], reported)).toEqual(reported.push);
    const dismissed = route(
      {
        entity: 'product',
        op: 'upsert',
        id: 'p1',
        row: product('p1', { advertised: true }),
        position: 8,
        route: { was: { reported: true } },
      },
      ['all'],
    );
    expect(decide([ads], dismissed)).toEqual(dismissed.push);
  });

  it('given a report on a sold listing, then a for-sale view hears nothing (it never showed it)', () => {
    const r = route({ entity: 'product', op: 'upsert', id: 'p1', row: product('p1', { sold: true, reported: true }), position: 7 }, [
      'all',
    ]);
    expect(decide([sony], r)).toBeNull();
  });

  it('given changes kept for catch-up, then a view reads only the changes under its keys', () => {
    const recent = new RecentChanges(100);
    for (let i = 1; i <= 50; i++) {
      const category = i % 10 === 0 ? 'lg' : 'sony';
      recent.add(
        route({ entity: 'product', op: 'upsert', id: `p${i}`, row: product(`p${i}`, { category_id: category }), position: i }, ['all']),
      );
    }
    expect(recent.under(['category:lg'], 0).map((r) => r.push.position)).toEqual([10, 20, 30, 40, 50]);
    const answer = viewCatchUpPage(recent, [lg], 15, 200, 50);
    expect(answer.changes.map((c) => c.position)).toEqual([20, 30, 40, 50]);
    expect(answer.position).toBe(50);
  });

  it('given a view that turns down most kept changes under its keys, then one ask looks at five pages of them at most, and asking on finds the rest', () => {
    const recent = new RecentChanges(1000);
    for (let i = 1; i <= 100; i++)
      recent.add(
        route(
          { entity: 'product', op: 'upsert', id: `p${i}`, row: product(`p${i}`, { resale_price: i === 100 ? 90_000 : 1000 }), position: i },
          ['all'],
        ),
      );
    const dear: View = { kind: 'products', filter: { sold: 'false', minPrice: 50_000 } };
    expect(recent.under(['products'], 0, 7).map((r) => r.push.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const first = viewCatchUpPage(recent, [dear], 0, 4, 100);
    expect(first).toEqual({ position: 20, changes: [], more: true });
    let answer = first;
    const found: number[] = [];
    while (answer.more) {
      answer = viewCatchUpPage(recent, [dear], answer.position, 4, 100);
      found.push(...answer.changes.map((c) => c.position));
    }
    expect(found).toEqual([100]);
    expect(answer.position).toBe(100);
  });

  it('given one event that made many changes, then neither a full page nor the scan limit ends among them', () => {
    const recent = new RecentChanges(1000);
    // Position 1: one listing; position 2: a seller's twelve listings removed at once; position 3: one more.
    recent.add(route({ entity: 'product', op: 'upsert', id: 'a', row: product('a'), position: 1 }, ['all']));
    for (let n = 0; n < 12; n++) recent.add(route({ entity: 'product', op: 'remove', id: `s${n}`, position: 2 }, ['all']));
    recent.add(route({ entity: 'product', op: 'upsert', id: 'b', row: product('b'), position: 3 }, ['all']));
    const forSale: View = { kind: 'products', filter: { sold: 'false' } };
    expect(recent.under(viewKeys(forSale), 0, 3).map((r) => r.push.position)).toEqual([1, ...Array<number>(12).fill(2)]);
    const first = viewCatchUpPage(recent, [forSale], 0, 2, 3);
    expect(first.changes.map((c) => c.id)).toEqual(['a', ...Array.from({ length: 12 }, (_, n) => `s${n}`)]);
    expect(first).toMatchObject({ position: 2, more: true });
    const next = viewCatchUpPage(recent, [forSale], first.position, 2, 3);
    expect(next.changes.map((c) => c.id)).toEqual(['b']);
    expect(next).not.toHaveProperty('more');
  });

  it('given changes that arrive out of position order (the projections publish apart), then a catch-up from between them still gets each', () => {
    const recent = new RecentChanges(100);
    const booking = (id: string, position: number) =>
      route({ entity: 'booking', op: 'remove', id, position }, [rooms.admins, rooms.user(id)]);
    // Catalog's 101 reaches the gateway after orders' 100 and before orders' 102: order by arrival is 101, 100, 102.
    recent.add(route({ entity: 'reported_product', op: 'remove', id: 'r1', position: 101 }, [rooms.admins]));
    recent.add(booking('b1', 100));
    recent.add(booking('b2', 102));
    const admin: View = { kind: 'admin' };
    expect(viewCatchUpPage(recent, [admin], 100, 200, 102).changes.map((c) => c.position)).toEqual([101, 102]);
    expect(recent.all.map((r) => r.push.position)).toEqual([100, 101, 102]);
  });

  it('given more kept changes than the store keeps, then the oldest go from every key', () => {
    const recent = new RecentChanges(100);
    for (let i = 1; i <= 300; i++)
      recent.add(route({ entity: 'product', op: 'upsert', id: `p${i}`, row: product(`p${i}`), position: i }, ['all']));
    expect(recent.all.length).toBeLessThanOrEqual(100 + 64);
    const kept = recent.under(['category:sony'], 0);
    expect(kept[0]!.push.position).toBe(recent.oldest);
    expect(kept.at(-1)!.push.position).toBe(300);
  });
});

describe('subscriptions by view, through real sockets', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ CATCH_UP_PAGE: '500' });
  });
  afterAll(async () => {
    await shop.stop();
  });

  /** A socket narrowed to `views`, collecting every push it gets (by view or by room). */
  const viewer = async (views: View[], token?: string, transport?: 'websocket' | 'polling') => {
    const { socket } = await shop.socket({ token, transport });
    // Its views' changes only: until its `views` arrive, the socket is in the default rooms and
    // may hear an earlier write's `change` there (a flush can follow the write's answer by up to 15 ms).
    const pushes: ChangePush[] = [];
    socket.on('changes', (batch) => pushes.push(...batch));
    const answer = await new Promise<ViewsAnswer>((resolve) => socket.emit('views', views, resolve));
    return { socket, pushes, answer };
  };
  /** What a socket heard, a change once (a catch-up or a recovery may bring one again: the browser drops it by its position). */
  const ops = (pushes: ChangePush[]) => [...new Map(pushes.map((x) => [`${x.id}@${x.position}`, x.op])).values()];
  /** Pushes leave a flush after the write's answer; a loaded machine may take a while. */
  const poll = <T>(fn: () => T) => expect.poll(fn, { timeout: 10_000 });
  const ask = (s: Client, since: number) => new Promise<CatchUpAnswer>((resolve) => s.emit('catch_up', since, resolve));
  const put = async (path: string, token: string) => {
    const res = await shop.call('PUT', path, { token });
    expect(res.status).toBe(200);
  };

  it('when listings are added in two categories, then a category page gets only its own, All Products both, and a legacy socket all', async () => {
    const seller = await shop.signup('Seller');
    const lg = await viewer([{ kind: 'products', filter: { category: 'lg' } }]);
    const all = await viewer([{ kind: 'products', filter: {} }]);
    const legacy = await shop.socket();
    const a = await shop.addProduct(seller.token, { category_id: 'lg', porduct_name: 'LG OLED' });
    const b = await shop.addProduct(seller.token, { category_id: 'sony', porduct_name: 'Sony Bravia' });
    await poll(() => all.pushes.map((p) => p.id)).toEqual(expect.arrayContaining([a._id, b._id]));
    await poll(() => legacy.pushes.map((p) => p.id)).toEqual(expect.arrayContaining([a._id, b._id]));
    await poll(() => lg.pushes.map((p) => p.id)).toContain(a._id);
    expect(lg.pushes.every((p) => p.entity === 'product' && p.id === a._id)).toBe(true);
    expect(lg.pushes.map((p) => p.id)).not.toContain(b._id);
  });

  it("when a seller with no listing yet is watched by their id, then their first listing reaches that view and another seller's does not; the old form by email is refused", async () => {
    const newcomer = await shop.signup('Seller');
    const other = await shop.signup('Seller');
    const page = await viewer([{ kind: 'seller', id: newcomer.user._id }]);
    expect(page.answer.refused).toEqual([]);
    const byEmail = await viewer([{ kind: 'seller', email: newcomer.user.email } as unknown as View]);
    expect(byEmail.answer.refused).toEqual(['#0']);
    const theirs = await shop.addProduct(other.token, { category_id: 'lg' });
    const first = await shop.addProduct(newcomer.token, { category_id: 'lg' });
    await poll(() => page.pushes.map((p) => p.id)).toEqual([first._id]);
    expect(page.pushes[0]).toMatchObject({ op: 'upsert', row: { sellerId: newcomer.user._id } });
    expect(page.pushes.map((p) => p.id)).not.toContain(theirs._id);
    // Sold: still theirs, so the seller's view hears the sold row, not a removal.
    await put(`/product/sold_status/${first._id}`, newcomer.token);
    await poll(() => ops(page.pushes)).toEqual(['upsert', 'upsert']);
    expect(byEmail.pushes).toEqual([]);
  });

  it('when a view socket is on long polling, then it gets the same changes as one on WebSocket (whose frame is built once for all)', async () => {
    const seller = await shop.signup('Seller');
    const view: View = { kind: 'products', filter: { category: 'xiaomi' } };
    const ws = await viewer([view]);
    const polling = await viewer([view], undefined, 'polling');
    const a = await shop.addProduct(seller.token, { category_id: 'xiaomi', porduct_name: 'Xiaomi A' });
    const b = await shop.addProduct(seller.token, { category_id: 'xiaomi', porduct_name: 'Xiaomi B' });
    for (const s of [ws, polling]) await poll(() => s.pushes.map((p) => p.id)).toEqual(expect.arrayContaining([a._id, b._id]));
    expect(polling.pushes.find((p) => p.id === a._id)).toEqual(ws.pushes.find((p) => p.id === a._id));
  });

  it('when a listing is sold, then the for-sale view gets a removal, the product page the sold row, and another category nothing', async () => {
    const seller = await shop.signup('Seller');
    const legacy = await shop.socket();
    const p = await shop.addProduct(seller.token, { category_id: 'walton' });
    // Its listing's push leaves a flush after the answer: the views below start after it went out.
    await poll(() => legacy.pushes.some((x) => x.id === p._id)).toBe(true);
    const walton = await viewer([{ kind: 'products', filter: { category: 'walton', sold: 'false' } }]);
    const page = await viewer([{ kind: 'product', id: p._id }]);
    const xiaomi = await viewer([{ kind: 'products', filter: { category: 'xiaomi' } }]);
    const mine = await viewer([{ kind: 'seller', id: seller.user._id }]);
    await put(`/product/sold_status/${p._id}`, seller.token);
    await poll(() => walton.pushes).toEqual([expect.objectContaining({ entity: 'product', op: 'remove', id: p._id })]);
    await expect
      .poll(() => page.pushes)
      .toEqual([expect.objectContaining({ op: 'upsert', id: p._id, row: expect.objectContaining({ sold: true }) })]);
    await poll(() => ops(mine.pushes)).toEqual(['upsert']);
    // Back for sale: the for-sale view gets the row again.
    await put(`/product/unsold_status/${p._id}`, seller.token);
    await poll(() => ops(walton.pushes)).toEqual(['remove', 'upsert']);
    // Removed by the admin: every view that showed it hears it.
    const admin = await shop.login('admin@tvshop.test', 'admin-password-1');
    expect((await shop.call('DELETE', `/product/${p._id}`, { token: admin.token })).status).toBe(200);
    await poll(() => ops(walton.pushes)).toEqual(['remove', 'upsert', 'remove']);
    await poll(() => ops(page.pushes)).toEqual(['upsert', 'upsert', 'remove']);
    expect(xiaomi.pushes).toEqual([]);
  });

  it('when a seller edits a listing into another brand and price, then the old brand and a price range it left get a removal, the new brand the row', async () => {
    const seller = await shop.signup('Seller');
    const legacy = await shop.socket();
    const p = await shop.addProduct(seller.token, { category_id: 'walton', resale_price: 30000 });
    await poll(() => legacy.pushes.some((x) => x.id === p._id)).toBe(true);
    const walton = await viewer([{ kind: 'products', filter: { category: 'walton' } }]);
    const lg = await viewer([{ kind: 'products', filter: { category: 'lg' } }]);
    const dear = await viewer([{ kind: 'products', filter: { minPrice: 25000 } }]);
    const page = await viewer([{ kind: 'product', id: p._id }]);
    const res = await shop.call('PUT', `/product/${p._id}`, {
      token: seller.token,
      body: shop.productBody({ category_id: 'lg', resale_price: 20000, porduct_name: 'LG 43" edited' }),
    });
    expect(res.status).toBe(200);
    await poll(() => ops(walton.pushes)).toEqual(['remove']);
    await poll(() => ops(dear.pushes)).toEqual(['remove']);
    await poll(() => lg.pushes).toEqual([
      expect.objectContaining({ op: 'upsert', id: p._id, row: expect.objectContaining({ category_id: 'lg', resale_price: 20000 }) }),
    ]);
    await poll(() => page.pushes).toEqual([
      expect.objectContaining({ op: 'upsert', row: expect.objectContaining({ porduct_name: 'LG 43" edited' }) }),
    ]);
    expect(lg.pushes[0]).not.toHaveProperty('route');
  });

  it('when advertising ends, then the advertised view gets a removal', async () => {
    const seller = await shop.signup('Seller');
    const p = await shop.addProduct(seller.token);
    const ads = await viewer([{ kind: 'advertised' }]);
    await put(`/product/get_advertise/${p._id}`, seller.token);
    await poll(() => ops(ads.pushes)).toEqual(['upsert']);
    await put(`/product/remove_advertise/${p._id}`, seller.token);
    await poll(() => ops(ads.pushes)).toEqual(['upsert', 'remove']);
  });

  it('when buyers report an advertised listing, then it leaves the advertised view and list until the admin dismisses the reports, and cannot be advertised meanwhile (ADR 0077)', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const admin = await shop.admin();
    const [shown, other] = [await shop.addProduct(seller.token), await shop.addProduct(seller.token)];
    const ads = await viewer([{ kind: 'advertised' }]);
    const heard = () => ops(ads.pushes.filter((x) => x.id === shown._id));
    await put(`/product/get_advertise/${shown._id}`, seller.token);
    await poll(heard).toEqual(['upsert']);
    const advertised = async () => ((await shop.call('GET', '/advertise_products')).body as { _id: string }[]).map((p) => p._id);
    await poll(advertised).toContain(shown._id);

    await put(`/product/add_reported/${shown._id}`, buyer.token);
    await poll(heard).toEqual(['upsert', 'remove']);
    await poll(advertised).not.toContain(shown._id);
    // Another report-waiting listing: the seller cannot put it in the spotlight.
    await put(`/product/add_reported/${other._id}`, buyer.token);
    const refused = await shop.call('PUT', `/product/get_advertise/${other._id}`, { token: seller.token });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('Buyers reported this listing; it cannot be advertised until the admin has reviewed it');

    await put(`/product/dismiss_reports/${shown._id}`, admin.token);
    await poll(heard).toEqual(['upsert', 'remove', 'upsert']);
    await poll(advertised).toContain(shown._id);
    expect((await shop.call('GET', `/product/${other._id}`)).body.product).toMatchObject({ reported: true, advertised: false });
  });

  it("when the admin takes a seller's listing off, then the seller's account view hears the removal (so they are told anywhere in the app), another seller's does not", async () => {
    const seller = await shop.signup('Seller');
    const other = await shop.signup('Seller');
    const admin = await shop.login('admin@tvshop.test', 'admin-password-1');
    const own = await viewer([{ kind: 'account', userId: seller.user._id }], seller.token);
    const theirs = await viewer([{ kind: 'account', userId: other.user._id }], other.token);
    const p = await shop.addProduct(seller.token);
    expect((await shop.call('DELETE', `/product/${p._id}`, { token: admin.token })).status).toBe(200);
    await poll(() => own.pushes.filter((x) => x.entity === 'product')).toEqual([
      expect.objectContaining({ op: 'remove', id: p._id, sellerId: seller.user._id }),
    ]);
    expect(theirs.pushes.filter((x) => x.entity === 'product')).toEqual([]);
    // A reconnecting socket's catch-up brings it too.
    expect((await ask(own.socket, 0)).changes).toEqual(expect.arrayContaining([expect.objectContaining({ op: 'remove', id: p._id })]));
  });

  it('authorisation: a visitor never gets a booking or a user, and nobody subscribes to another account or the admins', async () => {
    const seller = await shop.signup('Seller');
    const other = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const visitor = await viewer([
      { kind: 'products', filter: { sold: 'any' } },
      { kind: 'account', userId: seller.user._id },
      { kind: 'admin' },
    ]);
    expect(visitor.answer.refused).toEqual([`account:${seller.user._id}`, 'admin']);
    const snoop = await viewer([{ kind: 'account', userId: seller.user._id }], other.token);
    expect(snoop.answer.refused).toEqual([`account:${seller.user._id}`]);
    const own = await viewer([{ kind: 'account', userId: seller.user._id }], seller.token);
    expect(own.answer.refused).toEqual([]);
    const buyerOwn = await viewer([{ kind: 'account', userId: buyer.user._id }], buyer.token);
    const admin = await shop.login('admin@tvshop.test', 'admin-password-1');
    const admins = await viewer([{ kind: 'admin' }], admin.token);
    expect(admins.answer.refused).toEqual([]);

    const p = await shop.addProduct(seller.token);
    const bookingId = await shop.book(buyer.token, p._id);
    await poll(() => own.pushes.filter((x) => x.entity === 'booking').map((x) => x.id)).toEqual([bookingId]);
    await poll(() => buyerOwn.pushes.filter((x) => x.entity === 'booking').map((x) => x.id)).toEqual([bookingId]);
    await poll(() => admins.pushes.some((x) => x.entity === 'booking' && x.id === bookingId)).toBe(true);
    await poll(() => visitor.pushes.some((x) => x.entity === 'product' && x.id === p._id)).toBe(true);
    expect(visitor.pushes.filter((x) => x.entity !== 'product')).toEqual([]);
    expect(snoop.pushes).toEqual([]);
    // The admin view hears the admins' entities only, never All Products' listings.
    expect(admins.pushes.some((x) => x.entity === 'product')).toBe(false);
    // A view socket's catch-up is its views' too.
    const answer = await ask(visitor.socket, 0);
    expect(answer.changes.length).toBeGreaterThan(0);
    expect(answer.changes.every((c) => c.entity === 'product')).toBe(true);
    expect((await ask(snoop.socket, 0)).changes).toEqual([]);
  });

  it("when a socket reconnects, then its catch-up holds only its view's changes, from where it left", async () => {
    const seller = await shop.signup('Seller');
    const since = Number((await shop.call('GET', '/all_products')).headers.get('X-Position'));
    const ids = { lg: [] as string[], sony: [] as string[] };
    for (let i = 0; i < 4; i++) {
      ids.lg.push((await shop.addProduct(seller.token, { category_id: 'lg' }))._id);
      ids.sony.push((await shop.addProduct(seller.token, { category_id: 'sony' }))._id);
    }
    const back = await viewer([{ kind: 'products', filter: { category: 'lg' } }]);
    const answer = await ask(back.socket, since);
    expect(answer.changes.map((c) => c.id)).toEqual(ids.lg);
    expect(answer.more).toBeUndefined();
    const visitor = await viewer([{ kind: 'products', filter: {} }]);
    const everything = await ask(visitor.socket, since);
    expect(everything.changes.map((c) => c.id)).toEqual(ids.lg.flatMap((id, i) => [id, ids.sony[i]!]));
  });

  it('when a socket sends malformed things, then views that are not a list change nothing, a catch-up past the head answers the head, and a token that is not text is refused', async () => {
    const seller = await shop.signup('Seller');
    const s = await viewer([{ kind: 'products', filter: { category: 'lg' } }]);
    const notAList = await new Promise<ViewsAnswer>((resolve) =>
      s.socket.emit('views', { kind: 'products' } as unknown as View[], resolve),
    );
    expect(notAList.refused).toEqual(['views must be a list']);
    // The socket still hears its view.
    const lgTv = await shop.addProduct(seller.token, { category_id: 'lg' });
    await poll(() => s.pushes.map((p) => p.id)).toContain(lgTv._id);

    const head = Number((await shop.call('GET', '/all_products')).headers.get('X-Position'));
    const far = await ask(s.socket, 1e308);
    expect(far.position).toBeLessThanOrEqual(head + 5);
    expect(far.changes).toEqual([]);

    const refused = connect(shop.url, { path: '/socket.io', transports: ['websocket'], auth: { token: 12345 }, reconnection: false });
    const error = await new Promise<Error>((resolve) => refused.once('connect_error', resolve));
    expect(error.message).toBe('unauthorized');
    refused.disconnect();
  });

  it('when a socket changes its views, then it gets the new views only, and the answer says from where it is current', async () => {
    const seller = await shop.signup('Seller');
    const s = await viewer([{ kind: 'products', filter: { category: 'lg' } }]);
    const moved = await new Promise<ViewsAnswer>((resolve) =>
      s.socket.emit('views', [{ kind: 'products', filter: { category: 'sony' } }], resolve),
    );
    expect(moved.position).toBeGreaterThanOrEqual(s.answer.position);
    const lgTv = await shop.addProduct(seller.token, { category_id: 'lg' });
    const sonyTv = await shop.addProduct(seller.token, { category_id: 'sony' });
    await poll(() => s.pushes.map((p) => p.id)).toEqual([sonyTv._id]);
    expect(s.pushes.map((p) => p.id)).not.toContain(lgTv._id);
  });
});
