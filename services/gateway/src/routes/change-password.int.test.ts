import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestShop, type TestShop } from '../testing/harness';

/** A signed-in account changes its own password; every other session of it ends (ADR 0060). */
describe('changing your password', () => {
  let shop: TestShop;
  beforeAll(async () => {
    // Three wrong current passwords per account (and twenty per address) a window, to see the limit.
    // Clients told apart by X-Forwarded-For, and open sockets checked every 200 ms.
    shop = await startTestShop({
      LOGIN_FAILURES_PER_ACCOUNT: '3',
      LOGIN_FAILURES_PER_CLIENT: '20',
      TRUST_PROXY: 'true',
      SOCKET_SESSION_CHECK_MS: '200',
    });
  });
  afterAll(() => shop.stop());

  const change = (token: string | undefined, body: unknown, from = '198.51.100.1') =>
    shop.call('PUT', '/account/password', { ...(token ? { token } : {}), body, headers: { 'x-forwarded-for': from } });
  const me = (token: string, email: string) => shop.call('GET', `/users?email=${email}`, { token });
  /** `from`: the client's address (X-Forwarded-For); else this machine's, whose failed sign-ins the whole file shares (20). */
  const login = (email: string, password: string, from?: string) =>
    shop.call('POST', '/auth/login', { body: { email, password }, ...(from ? { headers: { 'x-forwarded-for': from } } : {}) });

  it('when a buyer changes it, then this session goes on with the new token, the others end, and only the new password signs in', async () => {
    const buyer = await shop.signup('Buyer');
    const email = buyer.user.email;
    // The same account signed in on a phone as well, with a socket open there.
    const phone = await login(email, 'secret-pass');
    expect(phone.status).toBe(200);
    const phoneSocket = await shop.socket({ token: phone.body.token });
    const closed = new Promise<string>((resolve) => phoneSocket.socket.once('disconnect', resolve));

    const res = await change(buyer.token, { current_password: 'secret-pass', new_password: 'a-better-passphrase' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ acknowledged: true, position: expect.any(Number), token: expect.any(String) });

    // This tab: the new token works at once; the token it had does not.
    expect((await me(res.body.token, email)).status).toBe(200);
    const stale = await me(buyer.token, email);
    expect(stale.status).toBe(401);
    expect(stale.body.detail).toMatch(/password of this account was changed, or it was signed out everywhere\); sign in again/);
    // The phone: its token stops, and its open socket is closed by the server.
    expect((await me(phone.body.token, email)).status).toBe(401);
    expect(await closed).toBe('io server disconnect');
    await expect(shop.socket({ token: phone.body.token })).rejects.toThrow(/unauthorized/);
    await expect(shop.socket({ token: res.body.token })).resolves.toBeDefined();
    // The old password no longer signs in; the new one does, and its token works.
    expect((await login(email, 'secret-pass')).status).toBe(401);
    const again = await login(email, 'a-better-passphrase');
    expect(again.status).toBe(200);
    expect((await me(again.body.token, email)).status).toBe(200);
    // The token the spec's client refreshes (GET /jwt) is stamped the same way.
    const refreshed = await shop.call('GET', `/jwt?email=${email}`, { token: again.body.token });
    expect((await me(refreshed.body.token, email)).status).toBe(200);
  });

  it('when the current password is wrong, then 403 naming it, and nothing changes', async () => {
    const seller = await shop.signup('Seller');
    const res = await change(seller.token, { current_password: 'not-it', new_password: 'a-better-passphrase' });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    expect(res.body).toMatchObject({ field: 'current_password', detail: 'The current password is not right' });
    expect((await me(seller.token, seller.user.email)).status).toBe(200);
    expect((await login(seller.user.email, 'secret-pass')).status).toBe(200);
    expect((await login(seller.user.email, 'a-better-passphrase')).status).toBe(401);
  });

  it('when the body is wrong, then 400 naming the field, and nothing changes', async () => {
    const buyer = await shop.signup('Buyer');
    const cases: [unknown, string][] = [
      [{ new_password: 'a-better-passphrase' }, 'current_password'],
      [{ current_password: 'secret-pass' }, 'new_password'],
      [{ current_password: 'secret-pass', new_password: 'short' }, 'new_password'],
      [{ current_password: 'secret-pass', new_password: 'secret-pass' }, 'new_password'],
      [{ current_password: 'secret-pass', new_password: 'x'.repeat(201) }, 'new_password'],
    ];
    for (const [body, field] of cases) {
      const res = await change(buyer.token, body);
      expect([field, res.status, res.body.field ?? res.body.errors?.[0]?.field]).toEqual([field, 400, field]);
    }
    expect((await me(buyer.token, buyer.user.email)).status).toBe(200);
    expect((await login(buyer.user.email, 'secret-pass')).status).toBe(200);
  });

  it('when nobody is signed in, or the token is stale, then 401 and nothing changes', async () => {
    expect((await change(undefined, { current_password: 'secret-pass', new_password: 'a-better-passphrase' })).status).toBe(401);
    const buyer = await shop.signup('Buyer');
    const first = await change(buyer.token, { current_password: 'secret-pass', new_password: 'first-new-password' });
    expect(first.status).toBe(200);
    // The old token, even with the right current password, changes nothing.
    const stale = await change(buyer.token, { current_password: 'first-new-password', new_password: 'stolen-session-pass' });
    expect(stale.status).toBe(401);
    expect((await login(buyer.user.email, 'first-new-password')).status).toBe(200);
  });

  it('when the current password is guessed again and again, then 429 with Retry-After, even for the right one, until the window ends', async () => {
    const buyer = await shop.signup('Buyer');
    for (let i = 0; i < 3; i++) {
      expect((await change(buyer.token, { current_password: `guess-${i}`, new_password: 'a-better-passphrase' })).status).toBe(403);
    }
    const limited = await change(buyer.token, { current_password: 'secret-pass', new_password: 'a-better-passphrase' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.body.field).toBe('current_password');
    expect((await login(buyer.user.email, 'secret-pass')).status).toBe(200);
  });

  it('when someone holding a stolen session guesses the current password from elsewhere, then they are stopped, and the owner can still change it', async () => {
    const buyer = await shop.signup('Buyer');
    const thief = (await login(buyer.user.email, 'secret-pass')).body.token as string;
    // Each guess from another address: the stolen session's budget is spent all the same.
    for (let i = 0; i < 3; i++) {
      expect((await change(thief, { current_password: `guess-${i}`, new_password: 'thief-password' }, `203.0.113.${10 + i}`)).status).toBe(
        403,
      );
    }
    expect((await change(thief, { current_password: 'secret-pass', new_password: 'thief-password' }, '203.0.113.99')).status).toBe(429);
    // A refreshed token is the same session, with the same spent budget.
    const refreshed = (await shop.call('GET', `/jwt?email=${buyer.user.email}`, { token: thief })).body.token as string;
    expect((await change(refreshed, { current_password: 'secret-pass', new_password: 'thief-password' }, '203.0.113.98')).status).toBe(429);
    const owner = await change(buyer.token, { current_password: 'secret-pass', new_password: 'owner-password' }, '203.0.113.99');
    expect(owner.status).toBe(200);
    expect((await me(thief, buyer.user.email)).status).toBe(401);
  });

  it('when sign-ins with the old password and token refreshes race the change, then every token they got dies with the old password', async () => {
    for (let round = 0; round < 3; round++) {
      const buyer = await shop.signup('Buyer');
      const email = buyer.user.email;
      const old = (await login(email, 'secret-pass')).body.token as string;
      let changing = true;
      const got: string[] = [];
      const race = async () => {
        while (changing) {
          const [signIn, refresh] = await Promise.all([
            // From an address of the round's own: the sign-ins that lose the race fail, as many as
            // the change takes to be answered, and must not spend the rest of the file's budget.
            login(email, 'secret-pass', `192.0.2.${10 + round}`),
            shop.call('GET', `/jwt?email=${email}`, { token: old }),
          ]);
          if (signIn.status === 200) got.push(signIn.body.token);
          if (refresh.status === 200) got.push(refresh.body.token);
        }
      };
      const racing = [race(), race()];
      const changed = await change(buyer.token, { current_password: 'secret-pass', new_password: `new-password-${round}` });
      changing = false;
      await Promise.all(racing);
      expect(changed.status).toBe(200);
      expect(got.length).toBeGreaterThan(0);
      const after = await Promise.all(got.map(async (token) => (await me(token, email)).status));
      expect(after.every((status) => status === 401)).toBe(true);
      expect((await me(changed.body.token, email)).status).toBe(200);
    }
  });

  it('when the page sends the change again with the same Idempotency-Key (a lost answer), then both answers carry a token that works', async () => {
    const buyer = await shop.signup('Buyer');
    const send = () =>
      shop.call('PUT', '/account/password', {
        token: buyer.token,
        body: { current_password: 'secret-pass', new_password: 'once-only-pass' },
        headers: { 'idempotency-key': `change-${buyer.user._id}`, 'x-forwarded-for': '198.51.100.3' },
      });
    const [first, second] = await Promise.all([send(), send()]);
    expect([first.status, second.status]).toEqual([200, 200]);
    for (const answer of [first, second]) expect((await me(answer.body.token, buyer.user.email)).status).toBe(200);
    expect((await login(buyer.user.email, 'once-only-pass')).status).toBe(200);
  });

  it('when two sessions change the password at once, then one change stands and the other is told it did not', async () => {
    const buyer = await shop.signup('Buyer');
    const other = (await login(buyer.user.email, 'secret-pass')).body.token as string;
    const [a, b] = await Promise.all([
      change(buyer.token, { current_password: 'secret-pass', new_password: 'password-from-a' }),
      change(other, { current_password: 'secret-pass', new_password: 'password-from-b' }, '198.51.100.2'),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([401, 403, 409]).toContain(statuses[1]);
    const winner = a.status === 200 ? 'password-from-a' : 'password-from-b';
    const loser = a.status === 200 ? 'password-from-b' : 'password-from-a';
    expect((await login(buyer.user.email, winner)).status).toBe(200);
    expect((await login(buyer.user.email, loser)).status).toBe(401);
  });

  it('when a gateway missed the announcement of a new password, then its open sockets of the account are closed at the next check all the same', async () => {
    const buyer = await shop.signup('Buyer');
    const { socket } = await shop.socket({ token: buyer.token });
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    // The read model changes with no announcement, as if this gateway's feed had dropped it.
    await shop.pool.query(`update rm_identity.users set password_hash = 'changed-elsewhere' where id = $1`, [buyer.user._id]);
    expect(await closed).toBe('io server disconnect');
  });

  it('when the admin changes theirs, then the admin pages take the new token and refuse the old one', async () => {
    const admin = await shop.admin();
    const res = await change(admin.token, { current_password: ADMIN.password, new_password: 'admin-password-2' });
    expect(res.status).toBe(200);
    expect((await shop.call('GET', '/users_role?role=Buyer', { token: res.body.token })).status).toBe(200);
    expect((await shop.call('GET', '/users_role?role=Buyer', { token: admin.token })).status).toBe(401);
    // And back, for whatever runs after.
    expect((await change(res.body.token, { current_password: 'admin-password-2', new_password: ADMIN.password })).status).toBe(200);
    expect((await shop.admin()).token).toEqual(expect.any(String));
  });
});
