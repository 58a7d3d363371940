import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestShop, type TestShop } from '../testing/harness';

describe('auth API', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.stop());

  it('when a person signs up, then they get a token and their account, and can sign in again', async () => {
    const email = `Nila.${Date.now()}@Example.com`;
    const res = await shop.call('POST', '/auth/signup', { body: { name: 'Nila', email, password: 'secret-pass', role: 'Buyer' } });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ name: 'Nila', email: email.toLowerCase(), role: 'Buyer', verified: false });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    const again = await shop.call('POST', '/auth/login', { body: { email, password: 'secret-pass' } });
    expect(again.status).toBe(200);
    expect(again.body.user._id).toBe(res.body.user._id);
    const me = await shop.call('GET', `/users?email=${encodeURIComponent(email)}`, { token: again.body.token });
    expect(me.body.email).toBe(email.toLowerCase());
  });

  it('when the password is wrong or the account unknown, then 401 naming the password field', async () => {
    const { user } = await shop.signup('Buyer');
    for (const body of [
      { email: user.email, password: 'nope-nope' },
      { email: 'nobody@example.com', password: 'whatever' },
    ]) {
      const res = await shop.call('POST', '/auth/login', { body });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 401, field: 'password', detail: 'Wrong email or password' });
    }
  });

  it('when an email is taken, then 409 on email and no second account', async () => {
    const { user } = await shop.signup('Seller');
    const res = await shop.call('POST', '/auth/signup', {
      body: { name: 'Copy', email: user.email, password: 'secret-pass', role: 'Buyer' },
    });
    expect(res.status).toBe(409);
    expect(res.body.field).toBe('email');
    const admin = await shop.admin();
    const buyers = await shop.call('GET', '/users_role?role=Buyer', { token: admin.token });
    expect(buyers.body.filter((u: { email: string }) => u.email === user.email)).toEqual([]);
  });

  it('when signup input is bad, then 400 naming the field, and nothing is stored', async () => {
    const cases: [unknown, string][] = [
      [{ email: 'a@b.co', password: 'secret-pass', role: 'Buyer' }, 'name'],
      [{ name: 'X', email: 'not-an-email', password: 'secret-pass', role: 'Buyer' }, 'email'],
      [{ name: 'X', email: 'x@example.com', password: '123', role: 'Buyer' }, 'password'],
      [{ name: 'X', email: 'x@example.com', password: 'secret-pass', role: 'Admin' }, 'role'],
      [{ name: 'X', email: 'x@example.com', password: 'secret-pass', role: 'Buyer', photoURL: 'javascript:alert(1)' }, 'photoURL'],
      [{ name: 42, email: 'x@example.com', password: 'secret-pass', role: 'Buyer' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await shop.call('POST', '/auth/signup', { body });
      expect(res.status, field).toBe(400);
      expect(res.body.field, JSON.stringify(res.body)).toBe(field);
    }
    expect((await shop.call('POST', '/auth/login', { body: { email: 'x@example.com', password: 'secret-pass' } })).status).toBe(401);
    const malformed = await shop.call('POST', '/auth/signup', { raw: '{"name": "X",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe('body');
    const huge = await shop.call('POST', '/auth/signup', { raw: JSON.stringify({ name: 'x'.repeat(200_000) }) });
    expect(huge.status).toBe(413);
    const arrayBody = await shop.call('POST', '/auth/login', { body: [1, 2] });
    expect(arrayBody.status).toBe(400);
  });

  it('when /jwt is asked for an email, then only the person signed in as that email gets a token', async () => {
    const a = await shop.signup('Buyer');
    const b = await shop.signup('Buyer');
    expect((await shop.call('GET', `/jwt?email=${a.user.email}`)).status).toBe(401);
    expect((await shop.call('GET', `/jwt?email=${a.user.email}`, { token: b.token })).status).toBe(403);
    const mine = await shop.call('GET', `/jwt?email=${a.user.email}`, { token: a.token });
    expect(mine.status).toBe(200);
    expect(typeof mine.body.token).toBe('string');
    expect((await shop.call('GET', '/users_buyer/' + a.user.email, { token: mine.body.token })).body).toEqual({ isBuyer: true });
    expect((await shop.call('GET', '/jwt', { token: a.token })).status).toBe(400);
  });

  it('when a token is forged or garbage, then 401', async () => {
    const a = await shop.signup('Buyer');
    const forged = a.token.slice(0, -4) + 'AAAA';
    expect((await shop.call('GET', `/users?email=${a.user.email}`, { token: forged })).status).toBe(401);
    expect((await shop.call('GET', `/users?email=${a.user.email}`, { token: 'garbage' })).status).toBe(401);
  });

  it('when Google sign-in is not configured, then a clear 501', async () => {
    const res = await shop.call('POST', '/auth/google', { body: { idToken: 'x'.repeat(40) } });
    expect(res.status).toBe(501);
    expect(res.body.detail).toMatch(/Google sign-in is not configured/);
    expect((await shop.call('GET', '/config')).body).toEqual({ stripePublishableKey: null, googleClientId: null });
  });
});

describe('Google sign-in against a local issuer', () => {
  let shop: TestShop;
  let keys: Awaited<ReturnType<typeof generateKeyPair>>;
  let jwks: http.Server;
  let issuer: string;
  beforeAll(async () => {
    keys = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    jwks = http.createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    issuer = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`;
    shop = await startTestShop({ GOOGLE_CLIENT_ID: 'tv-shop-client', GOOGLE_JWKS_URL: `${issuer}/certs`, GOOGLE_ISSUER: issuer });
  });
  afterAll(async () => {
    await shop.stop();
    jwks.close();
  });
  const idToken = (claims: Record<string, unknown>, audience = 'tv-shop-client', key = keys.privateKey) =>
    new SignJWT({ email_verified: true, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);

  it('when a verified Google token arrives, then a Buyer is created the first time and signed in after', async () => {
    const token = await idToken({ email: 'Rafi@Gmail.com', name: 'Rafi', picture: 'https://lh3.example/p.png' });
    const first = await shop.call('POST', '/auth/google', { body: { idToken: token } });
    expect(first.status).toBe(200);
    expect(first.body.user).toMatchObject({ email: 'rafi@gmail.com', name: 'Rafi', role: 'Buyer' });
    const second = await shop.call('POST', '/auth/google', { body: { idToken: await idToken({ email: 'rafi@gmail.com' }) } });
    expect(second.body.user._id).toBe(first.body.user._id);
    expect((await shop.call('GET', '/config')).body.googleClientId).toBe('tv-shop-client');
  });

  it('when an account opened with Google asks to change its password, then 409: it has none, and its session goes on', async () => {
    const google = await shop.call('POST', '/auth/google', { body: { idToken: await idToken({ email: 'mitu@gmail.com', name: 'Mitu' }) } });
    expect(google.status).toBe(200);
    const res = await shop.call('PUT', '/account/password', {
      token: google.body.token,
      body: { current_password: 'anything', new_password: 'a-new-password' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ field: 'current_password', detail: expect.stringMatching(/signs in with Google/) });
    expect((await shop.call('GET', `/users?email=mitu@gmail.com`, { token: google.body.token })).status).toBe(200);
  });

  it('when an account opened with Google signs out everywhere, then all its sessions end, and Google signs it in again', async () => {
    const here = await shop.call('POST', '/auth/google', { body: { idToken: await idToken({ email: 'sumi@gmail.com', name: 'Sumi' }) } });
    const there = await shop.call('POST', '/auth/google', { body: { idToken: await idToken({ email: 'sumi@gmail.com' }) } });
    const ended = await shop.call('DELETE', '/account/sessions', { token: here.body.token });
    expect(ended.status).toBe(200);
    for (const token of [here.body.token, there.body.token])
      expect((await shop.call('GET', `/users?email=sumi@gmail.com`, { token })).status).toBe(401);
    const back = await shop.call('POST', '/auth/google', { body: { idToken: await idToken({ email: 'sumi@gmail.com' }) } });
    expect((await shop.call('GET', `/users?email=sumi@gmail.com`, { token: back.body.token })).status).toBe(200);
  });

  it('when someone opened a password account with a Gmail address first, then Google sign-in for it never lands in that account', async () => {
    // The attacker signs up with the victim's address and a password of their choosing...
    const attacker = await shop.call('POST', '/auth/signup', {
      body: { name: 'Victim', email: 'victim@gmail.com', password: 'attacker-pass', role: 'Buyer' },
    });
    expect(attacker.status).toBe(201);
    // ...and the victim later uses Continue with Google: refused, no token, nothing of the account.
    const victim = await shop.call('POST', '/auth/google', { body: { idToken: await idToken({ email: 'Victim@Gmail.com' }) } });
    expect(victim.status).toBe(409);
    expect(victim.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(victim.body).toMatchObject({ status: 409, field: 'email' });
    expect(victim.body).not.toHaveProperty('token');
    // The bootstrap admin is a password account too.
    const admin = await shop.call('POST', '/auth/google', { body: { idToken: await idToken({ email: ADMIN.email }) } });
    expect(admin.status).toBe(409);
    // A password account's owner still signs in with the password.
    expect((await shop.call('POST', '/auth/login', { body: { email: 'victim@gmail.com', password: 'attacker-pass' } })).status).toBe(200);
  });

  it('when the token is for another audience, signed by another key, or the email is unverified, then 401', async () => {
    const other = await generateKeyPair('RS256');
    for (const t of [
      await idToken({ email: 'x@gmail.com' }, 'someone-else'),
      await idToken({ email: 'x@gmail.com' }, 'tv-shop-client', other.privateKey),
      await idToken({ email: 'x@gmail.com', email_verified: false }),
    ]) {
      const res = await shop.call('POST', '/auth/google', { body: { idToken: t } });
      expect(res.status).toBe(401);
      expect(res.body.field).toBe('idToken');
    }
  });
});

describe('sign-in and signup limits', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({
      LOGIN_FAILURES_PER_ACCOUNT: '5',
      LOGIN_FAILURES_PER_CLIENT: '12',
      SIGNUP_PER_ACCOUNT: '3',
      SIGNUP_PER_CLIENT: '8',
    });
  });
  afterAll(() => shop.stop());
  const login = (email: string, password: string) => shop.call('POST', '/auth/login', { body: { email, password } });
  const expect429 = (res: Awaited<ReturnType<typeof login>>, field: string) => {
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 429, field });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  };

  it('when one account is guessed at, then after the allowed failures even the right password waits, and others are untouched', async () => {
    const victim = await shop.signup('Buyer');
    const other = await shop.signup('Buyer');
    // Successes do not count against the account.
    for (let i = 0; i < 6; i++) expect((await login(victim.user.email, 'secret-pass')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(victim.user.email, `guess-${i}`)).status).toBe(401);
    expect429(await login(victim.user.email, 'guess-5'), 'password');
    expect429(await login(victim.user.email.toUpperCase(), 'secret-pass'), 'password');
    expect((await login(other.user.email, 'secret-pass')).status).toBe(200);
  });

  it('when one client guesses across many accounts, then it is limited by its address, whatever X-Forwarded-For it claims', async () => {
    // 5 failures and 2 refusals above already count for this address (7 of 12). No proxy is
    // trusted by default, so a made-up forwarded address is not a new client.
    for (let i = 0; i < 5; i++) {
      const res = await shop.call('POST', '/auth/login', {
        body: { email: `nobody${i}@example.com`, password: 'whatever' },
        headers: { 'X-Forwarded-For': `203.0.113.${i + 1}` },
      });
      expect(res.status).toBe(401);
    }
    expect429(
      await shop.call('POST', '/auth/login', {
        body: { email: 'nobody-else@example.com', password: 'whatever' },
        headers: { 'X-Forwarded-For': '198.51.100.77' },
      }),
      'password',
    );
  });

  it('when signups repeat for one email or pile up from one address, then 429 naming email', async () => {
    const body = { name: 'Dup', email: 'dup@example.com', password: 'secret-pass', role: 'Buyer' };
    expect((await shop.call('POST', '/auth/signup', { body })).status).toBe(201);
    expect((await shop.call('POST', '/auth/signup', { body })).status).toBe(409);
    expect((await shop.call('POST', '/auth/signup', { body })).status).toBe(409);
    expect429(await shop.call('POST', '/auth/signup', { body }), 'email');
    // 2 signups by the earlier test and 4 here so far; the address's limit is 8.
    for (let i = 0; i < 2; i++) await shop.signup('Seller');
    expect429(
      await shop.call('POST', '/auth/signup', {
        body: { name: 'Late', email: 'late@example.com', password: 'secret-pass', role: 'Buyer' },
      }),
      'email',
    );
  });
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ TRUST_PROXY: 'loopback', LOGIN_FAILURES_PER_CLIENT: '3', LOGIN_FAILURES_PER_ACCOUNT: '100' });
  });
  afterAll(() => shop.stop());
  const failFrom = (client: string, n: number) =>
    shop.call('POST', '/auth/login', { body: { email: `x${n}@example.com`, password: 'nope' }, headers: { 'X-Forwarded-For': client } });

  it('when the proxy names the clients, then each client address has its own quota', async () => {
    for (let i = 0; i < 3; i++) expect((await failFrom('203.0.113.10', i)).status).toBe(401);
    expect((await failFrom('203.0.113.10', 3)).status).toBe(429);
    expect((await failFrom('203.0.113.11', 4)).status).toBe(401);
  });
});

describe('an account guessed at from elsewhere (ADR 0020)', () => {
  let shop: TestShop;
  beforeAll(async () => {
    // Clients told apart by X-Forwarded-For, as behind a proxy on this machine.
    shop = await startTestShop({ TRUST_PROXY: 'loopback', LOGIN_FAILURES_PER_ACCOUNT: '3', LOGIN_FAILURES_PER_ACCOUNT_ANYWHERE: '8' });
  });
  afterAll(() => shop.stop());
  const login = (email: string, password: string, from: string) =>
    shop.call('POST', '/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': from } });

  it('when someone fails on purpose from their own address, then only that address waits: the owner signs in from theirs; guesses from many addresses together stop everyone', async () => {
    const owner = await shop.signup('Buyer');
    const email = owner.user.email;
    for (let i = 0; i < 3; i++) expect((await login(email, `guess-${i}`, '203.0.113.1')).status).toBe(401);
    const refused = await login(email, 'secret-pass', '203.0.113.1');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      field: 'password',
      detail: 'Too many failed sign-ins for this account from this network; try again in 15 minutes',
    });
    // The owner, elsewhere, is not kept out; their success spends nothing.
    expect((await login(email, 'secret-pass', '198.51.100.2')).status).toBe(200);

    // The refused try above never reached the account's count from anywhere (3 so far). Three more
    // addresses fail on it: 3 + 2 + 2 + 1, and the account's eight from anywhere are spent.
    for (const from of ['203.0.113.2', '203.0.113.3'])
      for (let i = 0; i < 2; i++) expect((await login(email, `guess-${from}-${i}`, from)).status).toBe(401);
    expect((await login(email, 'guess-last', '203.0.113.4')).status).toBe(401);
    const stopped = await login(email, 'secret-pass', '198.51.100.2');
    expect(stopped.status).toBe(429);
    expect(stopped.body).toMatchObject({ field: 'password', detail: 'Too many failed sign-ins for this account; try again in 15 minutes' });
    // Another account is untouched.
    const other = await shop.signup('Buyer');
    expect((await login(other.user.email, 'secret-pass', '203.0.113.1')).status).toBe(200);
  });
});
