import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokens } from '../auth/tokens';
import { startTestShop, type TestShop } from '../testing/harness';

const SECRET = 'log-out-test-secret-0123456789abcdef';

/** Log Out ends the session a token comes from, on the server too (ADR 0066). */
describe('logging out of one session', () => {
  let shop: TestShop;
  beforeAll(async () => {
    // The sweep of open sockets is slow here: a socket closed at once was closed by the Log Out's announcement.
    shop = await startTestShop({ SOCKET_SESSION_CHECK_MS: '600000', JWT_SECRET: SECRET });
  });
  afterAll(() => shop.stop());

  const logOut = (token?: string, headers: Record<string, string> = {}) =>
    shop.call('DELETE', '/account/sessions/current', { ...(token ? { token } : {}), headers });
  const me = (token: string, email: string) => shop.call('GET', `/users?email=${email}`, { token });
  const login = (email: string, password: string) => shop.call('POST', '/auth/login', { body: { email, password } });
  const refresh = (token: string, email: string) => shop.call('GET', `/jwt?email=${email}`, { token });

  it('when a buyer logs out on the laptop, then every token of that sign-in stops and its socket closes; the phone goes on', async () => {
    const buyer = await shop.signup('Buyer');
    const email = buyer.user.email;
    // The laptop's sign-in, and a token it refreshed; the phone's own sign-in, with sockets on both.
    const laptop = (await login(email, 'secret-pass')).body.token as string;
    const laptopRefreshed = (await refresh(laptop, email)).body.token as string;
    const phone = (await login(email, 'secret-pass')).body.token as string;
    const laptopSocket = await shop.socket({ token: laptopRefreshed });
    const phoneSocket = await shop.socket({ token: phone });
    const closed = new Promise<string>((resolve) => laptopSocket.socket.once('disconnect', resolve));

    const res = await logOut(laptop);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ acknowledged: true, position: expect.any(Number), modifiedCount: 1 });

    // That sign-in's tokens stop, the refreshed one too, and say why; none buys a new one.
    for (const token of [laptop, laptopRefreshed]) {
      const refused = await me(token, email);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
      expect(refused.body.detail).toMatch(/signed out/);
      expect((await refresh(token, email)).status).toBe(401);
    }
    expect(await closed).toBe('io server disconnect');
    await expect(shop.socket({ token: laptopRefreshed })).rejects.toThrow(/unauthorized/);
    // The phone's session is another: it goes on, on HTTP and on its socket.
    expect((await me(phone, email)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(phoneSocket.socket.connected).toBe(true);
    // And the account signs in again as ever.
    const again = (await login(email, 'secret-pass')).body.token as string;
    expect((await me(again, email)).status).toBe(200);
  });

  it('when the same session logs out twice (a retry), then the second is refused as signed out, and nothing else changes', async () => {
    const seller = await shop.signup('Seller');
    expect((await logOut(seller.token)).status).toBe(200);
    const second = await logOut(seller.token);
    expect(second.status).toBe(401);
    expect(second.body.detail).toMatch(/signed out/);
  });

  it('when two sessions of one account log out with the same Idempotency-Key, then each is a Log Out of its own', async () => {
    const buyer = await shop.signup('Buyer');
    const other = (await login(buyer.user.email, 'secret-pass')).body.token as string;
    const key = { 'Idempotency-Key': 'same-key-1' };
    expect((await logOut(buyer.token, key)).status).toBe(200);
    expect((await logOut(other, key)).status).toBe(200);
    expect((await me(buyer.token, buyer.user.email)).status).toBe(401);
    expect((await me(other, buyer.user.email)).status).toBe(401);
  });

  it('when a token from before sessions were named logs out, then 409 pointing to Sign out everywhere, and it still works', async () => {
    const seller = await shop.signup('Seller');
    const { rows } = await shop.pool.query<{ password_hash: string }>('select password_hash from rm_identity.users where id = $1', [
      seller.user._id,
    ]);
    // Signed as the shop signed tokens then: a password stamp, no `sid`.
    const ps = new Tokens(SECRET).stampOf(rows[0]!.password_hash);
    const old = jwt.sign({ email: seller.user.email, role: 'Seller', ps }, SECRET, {
      subject: seller.user._id,
      expiresIn: '1h',
      issuer: 'tv-shop',
    });
    expect((await me(old, seller.user.email)).status).toBe(200);
    const refused = await logOut(old);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/Sign out everywhere/);
    expect((await me(old, seller.user.email)).status).toBe(200);
  });

  it('when nobody is signed in, or the token is not one, then 401 and nothing is signed out', async () => {
    expect((await logOut()).status).toBe(401);
    expect((await logOut('not-a-token')).status).toBe(401);
  });
});
