import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '../testing/harness';
import { READ_MODELS_BEHIND } from './auth';

/**
 * A write that is stored while the identity read model cannot take it (its table locked against
 * writes, reads still allowed) outwaits the read-your-writes wait (10 s). The answer says what
 * happened, not a 409 that would send the user to try a write that can only fail: a signup is a
 * 503 that its retry (the same Idempotency-Key) answers once the read model caught up; a password
 * change is stored but can give no working token yet (202, token null).
 */
describe('an account write stored while the read models are behind', () => {
  let shop: TestShop;
  beforeAll(async () => {
    // Polling the login below must not spend the failed-sign-in budget into 429s.
    shop = await startTestShop({
      LOGIN_FAILURES_PER_ACCOUNT: '1000',
      LOGIN_FAILURES_PER_ACCOUNT_ANYWHERE: '1000',
      LOGIN_FAILURES_PER_CLIENT: '1000',
    });
  });
  afterAll(() => shop.stop());

  /** Holds the users table against writes (EXCLUSIVE lets SELECT through) until the answer returns. */
  async function whileIdentityIsStuck<T>(f: () => Promise<T>): Promise<T> {
    const locker = new pg.Client({ connectionString: shop.dbUrl });
    await locker.connect();
    try {
      const { rows } = await locker.query<{ schemaname: string }>(
        `select schemaname from pg_tables where tablename = 'users' and schemaname = 'rm_identity'`,
      );
      expect(rows).toHaveLength(1);
      await locker.query('begin');
      await locker.query(`lock table ${rows[0]!.schemaname}.users in exclusive mode`);
      return await f();
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
    }
  }

  const login = (email: string, password: string) => shop.call('POST', '/auth/login', { body: { email, password } });
  async function eventually(f: () => Promise<boolean>) {
    for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) if (await f()) return;
    throw new Error('never happened');
  }

  it('when a password change outwaits it, then 202 with no token, and once it catches up the new password signs in and the old token is refused', async () => {
    const buyer = await shop.signup('Buyer');
    const email = buyer.user.email;
    const res = await whileIdentityIsStuck(() =>
      shop.call('PUT', '/account/password', {
        token: buyer.token,
        body: { current_password: 'secret-pass', new_password: 'a-better-passphrase' },
      }),
    );
    expect(res.status).toBe(202);
    expect(res.headers.get('x-read-models')).toBe('behind');
    expect(res.body).toEqual({ acknowledged: true, position: expect.any(Number), modifiedCount: 1, token: null });
    // It was stored, and takes effect: the new password signs in, the old one and the old token no longer do.
    await eventually(async () => (await login(email, 'a-better-passphrase')).status === 200);
    expect((await login(email, 'secret-pass')).status).toBe(401);
    expect((await shop.call('GET', `/users?email=${email}`, { token: buyer.token })).status).toBe(401);
  }, 30_000);

  it('when a signup outwaits it, then 503 with Retry-After saying the account is open; its retry answers with a token once it catches up', async () => {
    const email = `late.${Math.random().toString(36).slice(2, 7)}@example.com`;
    const body = { name: 'Late Buyer', email, password: 'secret-pass', role: 'Buyer' };
    // As the web app sends it: a key of its own, the same on each retry.
    const signup = () => shop.call('POST', '/auth/signup', { body, headers: { 'idempotency-key': `late-signup-${email}` } });
    const res = await whileIdentityIsStuck(signup);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    expect(res.headers.get('retry-after')).toBe(String(READ_MODELS_BEHIND.retryAfterS));
    expect(res.body.detail).toBe(READ_MODELS_BEHIND.accountOpened);
    await eventually(async () => (await login(email, 'secret-pass')).status === 200);
    // The retry lands once (the same account) and gets its token; a signup of its own finds the email taken.
    const retried = await signup();
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ token: expect.any(String), user: { email, role: 'Buyer' } });
    expect((await shop.call('GET', `/users?email=${email}`, { token: retried.body.token })).status).toBe(200);
    expect((await shop.call('POST', '/auth/signup', { body })).status).toBe(409);
  }, 30_000);
});
