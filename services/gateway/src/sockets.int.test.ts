import jwt from 'jsonwebtoken';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatchUpAnswer, ChangePush, ClientToServerEvents, ServerToClientEvents, View, ViewsAnswer } from '@tv-shop/contracts';
import { VIEWS_REFUSED_FOR_ADDRESS } from '@tv-shop/contracts';
import { Tokens } from './auth/tokens';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { catchUpPage, ClientConnections } from './sockets';
import { startTestShop, type TestShop } from './testing/harness';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const SECRET = 'sockets-test-secret-0123456789abcdef';

describe('catch-up pages (unit)', () => {
  const kept = [1, 3, 4, 7, 9].map((position) => ({
    push: { entity: 'product' as const, op: 'remove' as const, id: `p${position}`, position },
    rooms: [position === 4 ? 'user:x' : 'everyone'],
  }));
  const everyone = (r: string[]) => r.includes('everyone');
  it('given more kept changes than a page, then the page ends where it stopped scanning and says more', () => {
    expect(catchUpPage(kept, 0, everyone, 2, 12)).toEqual({ position: 3, changes: [kept[0]!.push, kept[1]!.push], more: true });
    // Position 4 is someone else's: skipped, but covered by the page.
    expect(catchUpPage(kept, 3, everyone, 2, 12)).toEqual({ position: 12, changes: [kept[3]!.push, kept[4]!.push] });
  });
  it('given many kept changes the socket may not see, then one ask looks at five pages of them at most and says more', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      push: { entity: 'product' as const, op: 'remove' as const, id: `q${i + 1}`, position: i + 1 },
      rooms: [i === 39 ? 'everyone' : 'user:x'],
    }));
    // A page of 2: ten changes looked at, none visible; the next ask goes on from the tenth.
    expect(catchUpPage(many, 0, everyone, 2, 40)).toEqual({ position: 10, changes: [], more: true });
    let from = 0;
    let asks = 0;
    const seen: number[] = [];
    for (let more = true; more; asks++) {
      const answer = catchUpPage(many, from, everyone, 2, 40);
      seen.push(...answer.changes.map((c) => c.position));
      more = answer.more === true;
      from = answer.position;
    }
    expect(seen).toEqual([40]);
    expect(asks).toBe(4);
  });
  it('given one event that made several changes, then a page never ends among them (the next ask starts after their position)', () => {
    // A deleted seller's three listings, all at position 2.
    const tied = [1, 2, 2, 2, 3].map((position, n) => ({
      push: { entity: 'product' as const, op: 'remove' as const, id: `t${n}`, position },
      rooms: ['everyone'],
    }));
    const first = catchUpPage(tied, 0, everyone, 2, 3);
    expect(first).toEqual({ position: 2, changes: tied.slice(0, 4).map((t) => t.push), more: true });
    expect(catchUpPage(tied, first.position, everyone, 2, 3)).toEqual({ position: 3, changes: [tied[4]!.push] });
  });
  it('given a page that reaches the end, then the answer is at the head and has no more', () => {
    expect(catchUpPage(kept, 7, everyone, 2, 12)).toEqual({ position: 12, changes: [kept[4]!.push] });
    expect(catchUpPage(kept, 12, everyone, 2, 12)).toEqual({ position: 12, changes: [] });
  });
});

describe('Socket.IO catch-up limits and session checks, through real sockets', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ JWT_SECRET: SECRET, CATCH_UP_PAGE: '3', CATCH_UP_CALLS_PER_MINUTE: '20' });
  });
  afterAll(async () => {
    await shop.stop();
  });

  const open = async (token?: string) => (await shop.socket({ token })).socket;
  const ask = (s: Client, since: number) => new Promise<CatchUpAnswer>((resolve) => s.emit('catch_up', since, resolve));
  const closedByServer = (s: Client) => new Promise<string>((resolve) => s.once('disconnect', resolve));

  it('when a socket catches up on more than a page, then it gets pages that together hold every change once', async () => {
    const seller = await shop.signup('Seller');
    const since = (await shop.call('GET', '/all_products')).headers.get('X-Position');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await shop.addProduct(seller.token, { porduct_name: `Paged TV ${i}` }))._id);
    const visitor = await open();
    const seen: string[] = [];
    let from = Number(since);
    let pages = 0;
    for (;;) {
      const answer = await ask(visitor, from);
      pages += 1;
      expect(answer.changes.length).toBeLessThanOrEqual(3);
      seen.push(...answer.changes.filter((c) => c.entity === 'product').map((c) => c.id));
      if (!answer.more) break;
      expect(answer.position).toBeGreaterThan(from);
      from = answer.position;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    expect([...new Set(seen)].sort()).toEqual([...ids].sort());
  });

  it('when a socket asks catch_up over and over, then it is cut off, and other sockets are not', async () => {
    const abuser = await open();
    const bystander = await open();
    const closed = closedByServer(abuser);
    for (let i = 0; i < 40; i++) abuser.emit('catch_up', 0, () => {});
    expect(await closed).toBe('io server disconnect');
    expect(bystander.connected).toBe(true);
    expect(Array.isArray((await ask(bystander, 0)).changes)).toBe(true);
  });

  /** Drops the connection the way a network does (no goodbye), so the server keeps the session. */
  const dropAbruptly = async (s: Client, seller: { token: string }) => {
    // Recovery needs a pushed packet's offset: make a change everyone hears.
    await shop.addProduct(seller.token);
    await expect.poll(() => (s as unknown as { _lastOffset?: string })._lastOffset).toBeDefined();
    const gone = closedByServer(s);
    s.io.engine.close();
    await gone;
  };
  /** Reconnects with the kept session id and offset, as the client does after a drop. */
  const comeBack = (s: Client) =>
    new Promise<{ ok: true } | { ok: false; error: string }>((resolve) => {
      s.once('connect', () => resolve({ ok: true }));
      s.once('connect_error', (err) => resolve({ ok: false, error: err.message }));
      s.connect();
    });
  /**
   * A token of the account that expires in `seconds` (JWT counts whole seconds, so it lives
   * between seconds - 1 and seconds), stamped with its password as the shop stamps its own (ADR 0060).
   */
  const shortToken = async (userId: string, email: string, seconds = 2) => {
    const { rows } = await shop.pool.query<{ password_hash: string | null }>('select password_hash from rm_identity.users where id = $1', [
      userId,
    ]);
    const ps = new Tokens(SECRET).stampOf(rows[0]!.password_hash);
    return jwt.sign({ email, role: 'Buyer', ps }, SECRET, { subject: userId, expiresIn: seconds, algorithm: 'HS256', issuer: 'tv-shop' });
  };

  it('when a socket drops and comes back while its account holds, then its session is recovered', async () => {
    const [buyer, seller] = [await shop.signup('Buyer'), await shop.signup('Seller')];
    const s = await open(buyer.token);
    await dropAbruptly(s, seller);
    expect(await comeBack(s)).toEqual({ ok: true });
    expect(s.recovered).toBe(true);
  });

  it('when a deleted account comes back through connection-state recovery, then it gets no session back and is refused', async () => {
    const [buyer, seller] = [await shop.signup('Buyer'), await shop.signup('Seller')];
    const s = await open(buyer.token);
    await dropAbruptly(s, seller);
    const admin = await shop.admin();
    expect((await shop.call('DELETE', `/users/${buyer.user._id}`, { token: admin.token })).status).toBe(200);
    expect(await comeBack(s)).toEqual({ ok: false, error: 'unauthorized' });
    expect(s.connected).toBe(false);
  });

  it('when a dropped socket comes back after its token expired, then it is refused', async () => {
    // Everything slow (sign-ups hash passwords) happens before the token's clock starts, and it
    // lives long enough for the drop to come first: the server closing the socket at expiry
    // instead would be the next test's case, and leave no session to come back to.
    const [buyer, seller] = [await shop.signup('Buyer'), await shop.signup('Seller')];
    const token = await shortToken(buyer.user._id, buyer.user.email, 5);
    const expires = Date.now() + 5_000;
    const s = await open(token);
    await dropAbruptly(s, seller);
    await new Promise((r) => setTimeout(r, Math.max(0, expires - Date.now()) + 200));
    expect(await comeBack(s)).toEqual({ ok: false, error: 'unauthorized' });
  });

  it('when the token of an open socket expires, then the server closes it', async () => {
    const buyer = await shop.signup('Buyer');
    const live = await open(await shortToken(buyer.user._id, buyer.user.email));
    expect(await closedByServer(live)).toBe('io server disconnect');
  });
});

describe('Socket.IO catch-up budget per client address', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ CATCH_UP_CALLS_PER_MINUTE: '20', CATCH_UP_CALLS_PER_CLIENT_PER_MINUTE: '10' });
  });
  afterAll(async () => {
    await shop.stop();
  });
  const open = async (headers: Record<string, string> = {}) => (await shop.socket({ headers })).socket;
  const ask = (s: Client) =>
    new Promise<'answered' | 'closed'>((resolve) => {
      s.once('disconnect', () => resolve('closed'));
      s.emit('catch_up', 0, () => resolve('answered'));
    });

  it('when one client spreads catch_up over new sockets (claiming other addresses), then its address runs out of budget all the same', async () => {
    const first = await open();
    for (let i = 0; i < 6; i++) expect(await ask(first)).toBe('answered');
    // A new socket is no new budget, and X-Forwarded-For is not believed without TRUST_PROXY.
    const second = await open({ 'X-Forwarded-For': '203.0.113.9' });
    for (let i = 0; i < 4; i++) expect(await ask(second)).toBe('answered');
    expect(await ask(second)).toBe('closed');
  });
});

describe('open sockets per client address (unit)', () => {
  const request = (address: string) => ({ socket: { remoteAddress: address } }) as unknown as IncomingMessage;
  class Raw extends EventEmitter {
    closed = false;
    constructor(readonly request: IncomingMessage) {
      super();
    }
    close() {
      this.closed = true;
      this.emit('close');
    }
  }
  const raw = (address: string) => new Raw(request(address));

  it('given two handshakes that passed the check in the same moment, then the one past the cap is closed as it opens, and counted no more', () => {
    const connections = new ClientConnections(2, (req) => req.socket.remoteAddress!);
    const [a, b, c] = [raw('10.0.0.1'), raw('10.0.0.1'), raw('10.0.0.1')];
    expect(connections.mayOpen(a.request)).toBe(true);
    connections.opened(a);
    connections.opened(b);
    // c was allowed before b was counted.
    connections.opened(c);
    expect([a.closed, b.closed, c.closed]).toEqual([false, false, true]);
    expect(connections.of('10.0.0.1')).toBe(2);
    expect(connections.mayOpen(request('10.0.0.1'))).toBe(false);
    expect(connections.mayOpen(request('10.0.0.2'))).toBe(true);
    a.close();
    expect(connections.of('10.0.0.1')).toBe(1);
    expect(connections.mayOpen(request('10.0.0.1'))).toBe(true);
  });
});

describe('Socket.IO sockets and views per client address', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ SOCKETS_PER_CLIENT: '3', VIEWS_CALLS_PER_CLIENT_PER_MINUTE: '5' });
  });
  afterAll(async () => {
    await shop.stop();
  });
  const refusal = (opts: Parameters<TestShop['socket']>[0]) =>
    shop.socket(opts).then(
      ({ socket }) => (socket.disconnect(), 'opened'),
      (err: Error) => err.message,
    );
  /** A socket, once the server has counted the ones closed before it as closed (a moment after they close). */
  const opened = async () => {
    for (let i = 0; ; i++) {
      try {
        return (await shop.socket({})).socket;
      } catch (err) {
        if (i >= 60) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };

  it('when one address holds its cap of open sockets, then one more is refused at its handshake (either transport, whatever it claims) until one closes', async () => {
    const held = [await opened(), await opened(), (await shop.socket({ transport: 'polling' })).socket];
    expect(await refusal({})).not.toBe('opened');
    expect(await refusal({ transport: 'polling' })).not.toBe('opened');
    // X-Forwarded-For is not believed without TRUST_PROXY.
    expect(await refusal({ headers: { 'X-Forwarded-For': '203.0.113.7' } })).not.toBe('opened');
    // The sockets held are still served.
    const answer = await new Promise((resolve) => held[0]!.emit('catch_up', 0, resolve));
    expect(answer).toMatchObject({ position: expect.any(Number) });

    held[0]!.disconnect();
    const again = await opened();
    expect(again.connected).toBe(true);
    [...held, again].forEach((s) => s.disconnect());
  });

  it('when the sockets of one address call views past its budget together, then the call past it is refused whole and every socket stays open', async () => {
    const [first, second] = [await opened(), await opened()];
    const call = (s: Client, view: View) => new Promise<ViewsAnswer>((resolve) => s.emit('views', [view], resolve));
    const sony: View = { kind: 'products', filter: { category: 'sony' } };
    for (let i = 0; i < 3; i++) expect((await call(first, sony)).refused).toEqual([]);
    for (let i = 0; i < 2; i++) expect((await call(second, sony)).refused).toEqual([]);
    // The sixth call of the address: refused, and the socket keeps the views it had.
    expect((await call(second, { kind: 'products', filter: { category: 'lg' } })).refused).toEqual([VIEWS_REFUSED_FOR_ADDRESS]);
    expect(first.connected && second.connected).toBe(true);
    const pushed = new Promise<ChangePush[]>((resolve) => second.once('changes', resolve));
    const seller = await shop.signup('Seller');
    await shop.addProduct(seller.token, { category_id: 'sony' });
    expect((await pushed).map((p) => p.entity)).toContain('product');
  });
});
