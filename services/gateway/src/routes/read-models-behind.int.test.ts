import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '../testing/harness';
import { READ_MODELS_BEHIND } from './auth';

/**
 * A write that is stored while the identity read model cannot take it (its table locked against
 * writes, reads still allowed) outwaits the read-your-writes wait (10 s). The answer says what
 * happened (503, Retry-After: it is stored and takes effect), not a 409 that would send the user to
 * try a write that can only fail.
 */
describe('an account write stored while the read models are behind', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.stop());

  /** Holds the users table against writes (EXCLUSIVE lets SELECT through) until the answer returns. */
  async function whileIdentityIsStuck<T>(f: () => Promise<T>): Promise<T> {
    const locker = new pg.Client({ connectionString: shop.dbUrl });
    await locker.connect();
    try {
      const { rows } = await locker.query<{ schemaname: string }>(
        `select schemaname from pg_tables where tablename = 'users' and schemaname like 'rm_identity%'`,
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

  it('when a password change outwaits it, then 503 with Retry-After saying the new password is stored, and the new password signs in once it catches up', async () => {
    const buyer = await shop.signup('Buyer');
    const email = buyer.user.email;
    const res = await whileIdentityIsStuck(() =>
      shop.call('PUT', '/account/password', {
        token: buyer.token,
        body: { current_password: 'secret-pass', new_password: 'a-better-passphrase' },
      }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    expect(res.headers.get('retry-after')).toBe(String(READ_MODELS_BEHIND.retryAfterS));
    expect(res.body.detail).toBe(READ_MODELS_BEHIND.passwordChanged);
    // It was stored, and takes effect: the new password signs in, the old one no longer does.
    await eventually(async () => (await login(email, 'a-better-passphrase')).status === 200);
    expect((await login(email, 'secret-pass')).status).toBe(401);
  }, 30_000);

  it('when a signup outwaits it, then 503 with Retry-After saying the account is open, and it signs in once it catches up', async () => {
    const email = `late.${Math.random().toString(36).slice(2, 7)}@example.com`;
    const res = await whileIdentityIsStuck(() =>
      shop.call('POST', '/auth/signup', { body: { name: 'Late Buyer', email, password: 'secret-pass', role: 'Buyer' } }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(READ_MODELS_BEHIND.retryAfterS));
    expect(res.body.detail).toBe(READ_MODELS_BEHIND.accountOpened);
    await eventually(async () => (await login(email, 'secret-pass')).status === 200);
    // Opened once: signing up again finds it taken.
    const again = await shop.call('POST', '/auth/signup', { body: { name: 'Late Buyer', email, password: 'secret-pass', role: 'Buyer' } });
    expect(again.status).toBe(409);
  }, 30_000);
});
