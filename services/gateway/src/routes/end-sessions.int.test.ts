import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '../testing/harness';

/** A signed-in account signs out everywhere, its own session too (ADR 0062). */
describe('signing out everywhere', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ SOCKET_SESSION_CHECK_MS: '200' });
  });
  afterAll(() => shop.stop());

  const end = (token?: string, headers: Record<string, string> = {}) =>
    shop.call('DELETE', '/account/sessions', { ...(token ? { token } : {}), headers });
  const me = (token: string, email: string) => shop.call('GET', `/users?email=${email}`, { token });
  const login = (email: string, password: string) => shop.call('POST', '/auth/login', { body: { email, password } });

  it('when a seller asks, then every session ends, this one too, sockets close, and the password signs in again', async () => {
    const seller = await shop.signup('Seller');
    const email = seller.user.email;
    // Signed in on a phone too, with a socket open there, and a token refreshed there.
    const phone = (await login(email, 'secret-pass')).body.token as string;
    const refreshed = (await shop.call('GET', `/jwt?email=${email}`, { token: phone })).body.token as string;
    const phoneSocket = await shop.socket({ token: phone });
    const closed = new Promise<string>((resolve) => phoneSocket.socket.once('disconnect', resolve));

    const res = await end(seller.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true, position: expect.any(Number), modifiedCount: 1 });

    // Every token of the account stops, the asker's too, and says why.
    for (const token of [seller.token, phone, refreshed]) {
      const stale = await me(token, email);
      expect(stale.status).toBe(401);
      expect(stale.headers.get('content-type')).toMatch(/problem\+json/);
      expect(stale.body.detail).toMatch(/signed out everywhere/);
    }
    // The open socket is closed by the server; a new one with an old token is refused; a stale
    // token buys no new one.
    expect(await closed).toBe('io server disconnect');
    await expect(shop.socket({ token: phone })).rejects.toThrow(/unauthorized/);
    expect((await shop.call('GET', `/jwt?email=${email}`, { token: phone })).status).toBe(401);
    // The password is the same: signing in again works, on HTTP and sockets, and its refresh too.
    const again = (await login(email, 'secret-pass')).body.token as string;
    expect((await me(again, email)).status).toBe(200);
    await expect(shop.socket({ token: again })).resolves.toBeDefined();
    const refreshedAgain = (await shop.call('GET', `/jwt?email=${email}`, { token: again })).body.token as string;
    expect((await me(refreshedAgain, email)).status).toBe(200);
  });

  it('when someone holding a stolen token asks, then their token ends with the others, and the owner signs in again for good', async () => {
    const buyer = await shop.signup('Buyer');
    const stolen = (await login(buyer.user.email, 'secret-pass')).body.token as string;
    expect((await end(stolen)).status).toBe(200);
    // The thief can do it once: nothing is left to ask with.
    expect((await end(stolen)).status).toBe(401);
    expect((await me(stolen, buyer.user.email)).status).toBe(401);
    const owner = (await login(buyer.user.email, 'secret-pass')).body.token as string;
    expect((await me(owner, buyer.user.email)).status).toBe(200);
    // The owner can then change the password, which the thief never had.
    const changed = await shop.call('PUT', '/account/password', {
      token: owner,
      body: { current_password: 'secret-pass', new_password: 'a-better-passphrase' },
    });
    expect(changed.status).toBe(200);
  });

  it('when two sessions ask at once, then both end and neither gets a token', async () => {
    const buyer = await shop.signup('Buyer');
    const other = (await login(buyer.user.email, 'secret-pass')).body.token as string;
    const [a, b] = await Promise.all([end(buyer.token), end(other)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.token).toBeUndefined();
    expect(b.body.token).toBeUndefined();
    expect((await me(buyer.token, buyer.user.email)).status).toBe(401);
    expect((await me(other, buyer.user.email)).status).toBe(401);
  });

  it('when nobody is signed in, then 401 and nothing ends', async () => {
    const buyer = await shop.signup('Buyer');
    expect((await end()).status).toBe(401);
    expect((await end('not-a-token')).status).toBe(401);
    expect((await me(buyer.token, buyer.user.email)).status).toBe(200);
  });
});
