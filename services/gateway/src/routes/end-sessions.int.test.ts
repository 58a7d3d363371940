import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '../testing/harness';

/** A signed-in account signs out everywhere else: every other session of it ends (ADR 0062). */
describe('signing out everywhere else', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ SOCKET_SESSION_CHECK_MS: '200' });
  });
  afterAll(() => shop.stop());

  const end = (token?: string, headers: Record<string, string> = {}) =>
    shop.call('DELETE', '/account/sessions', { ...(token ? { token } : {}), headers });
  const me = (token: string, email: string) => shop.call('GET', `/users?email=${email}`, { token });
  const login = (email: string, password: string) => shop.call('POST', '/auth/login', { body: { email, password } });

  it('when a seller asks, then this session goes on with a new token, every other one ends, and the password still signs in', async () => {
    const seller = await shop.signup('Seller');
    const email = seller.user.email;
    // Signed in on a phone too, with a socket open there, and a token refreshed there.
    const phone = (await login(email, 'secret-pass')).body.token as string;
    const refreshed = (await shop.call('GET', `/jwt?email=${email}`, { token: phone })).body.token as string;
    const phoneSocket = await shop.socket({ token: phone });
    const closed = new Promise<string>((resolve) => phoneSocket.socket.once('disconnect', resolve));

    const res = await end(seller.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ acknowledged: true, position: expect.any(Number), token: expect.any(String) });

    // This tab: the new token works (HTTP and socket), the one it had does not.
    expect((await me(res.body.token, email)).status).toBe(200);
    await expect(shop.socket({ token: res.body.token })).resolves.toBeDefined();
    const stale = await me(seller.token, email);
    expect(stale.status).toBe(401);
    expect(stale.headers.get('content-type')).toMatch(/problem\+json/);
    expect(stale.body.detail).toMatch(/signed out everywhere/);
    // The phone: its tokens stop, its socket is closed by the server, and a new one is refused.
    expect((await me(phone, email)).status).toBe(401);
    expect((await me(refreshed, email)).status).toBe(401);
    expect(await closed).toBe('io server disconnect');
    await expect(shop.socket({ token: phone })).rejects.toThrow(/unauthorized/);
    // A stale token buys no new one.
    expect((await shop.call('GET', `/jwt?email=${email}`, { token: phone })).status).toBe(401);
    // The password is the same: signing in again works, and so does the refreshed token of that sign-in.
    const again = (await login(email, 'secret-pass')).body.token as string;
    expect((await me(again, email)).status).toBe(200);
    const refreshedAgain = (await shop.call('GET', `/jwt?email=${email}`, { token: again })).body.token as string;
    expect((await me(refreshedAgain, email)).status).toBe(200);
  });

  it('when it is asked twice, then each time the tokens from before end, and the newest goes on', async () => {
    const buyer = await shop.signup('Buyer');
    const first = await end(buyer.token);
    expect(first.status).toBe(200);
    const other = (await login(buyer.user.email, 'secret-pass')).body.token as string;
    const second = await end(first.body.token);
    expect(second.status).toBe(200);
    expect((await me(first.body.token, buyer.user.email)).status).toBe(401);
    expect((await me(other, buyer.user.email)).status).toBe(401);
    expect((await me(second.body.token, buyer.user.email)).status).toBe(200);
  });

  it('when a request is repeated with the same Idempotency-Key, then the sessions end once: the retry, on a token that ended, is 401', async () => {
    const buyer = await shop.signup('Buyer');
    const other = (await login(buyer.user.email, 'secret-pass')).body.token as string;
    const key = { 'Idempotency-Key': `end-sessions-${Date.now()}` };
    const first = await end(buyer.token, key);
    expect(first.status).toBe(200);
    // A client whose answer was lost retries with the token it had, which the ending stopped.
    expect((await end(buyer.token, key)).status).toBe(401);
    // Ended once: the first answer's token still works; had the retry ended them again, it would not.
    expect((await me(first.body.token, buyer.user.email)).status).toBe(200);
    expect((await me(other, buyer.user.email)).status).toBe(401);
  });

  it('when nobody is signed in, or the token is stale, then 401 and nothing ends', async () => {
    const buyer = await shop.signup('Buyer');
    expect((await end()).status).toBe(401);
    expect((await end('not-a-token')).status).toBe(401);
    // A token of this account from before an ending cannot end the sessions that came after it.
    const ended = await end(buyer.token);
    const later = (await login(buyer.user.email, 'secret-pass')).body.token as string;
    const stale = await end(buyer.token);
    expect(stale.status).toBe(401);
    expect((await me(ended.body.token, buyer.user.email)).status).toBe(200);
    expect((await me(later, buyer.user.email)).status).toBe(200);
  });
});
