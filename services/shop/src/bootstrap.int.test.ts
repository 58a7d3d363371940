import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { startAll, type StartOptions } from './start';

const ADMIN_EMAIL = 'admin@tvshop.local';

describe('the admin account has no default password', () => {
  let db: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    db = await createTestDatabase('admin');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-admin-'));
  });
  afterAll(async () => {
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Starts TV Shop as `npm start` would, with only the given environment, and keeps what it prints. */
  const start = async (env: NodeJS.ProcessEnv = {}, opts: Partial<StartOptions> = {}) => {
    let printed = '';
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string | Uint8Array, ...rest: never[]) => {
      printed += chunk.toString();
      return write(chunk, ...rest);
    };
    try {
      const running = await startAll({ port: 0, databaseUrl: db.url, dataDir, webDist: path.join(dataDir, 'none'), env, ...opts });
      return { running, printed };
    } finally {
      process.stdout.write = write;
    }
  };
  const login = async (url: string, email: string, password: string) =>
    (
      await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
    ).status;

  it('when an install from before still has admin-password, then the next start replaces it with a generated one', async () => {
    // What every earlier version did on its first start.
    const old = await start({}, { adminPassword: 'admin-password' });
    expect(await login(old.running.url, ADMIN_EMAIL, 'admin-password')).toBe(200);
    await old.running.stop();

    const { running, printed } = await start();
    const file = path.join(dataDir, 'admin-password');
    const generated = (await readFile(file, 'utf8')).trim();
    expect(generated.length).toBeGreaterThanOrEqual(24);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // Printed once, with where to find it.
    expect(printed).toContain(generated);
    expect(printed).toContain(file);
    expect(await login(running.url, ADMIN_EMAIL, 'admin-password')).toBe(401);
    expect(await login(running.url, ADMIN_EMAIL, generated)).toBe(200);
    await running.stop();

    // The next start keeps it, and does not print it again.
    const again = await start();
    expect(again.printed).not.toContain(generated);
    expect(await login(again.running.url, ADMIN_EMAIL, generated)).toBe(200);
    await again.running.stop();
  });

  it('when ADMIN_PASSWORD is set, then it is the password', async () => {
    const { running } = await start({ ADMIN_PASSWORD: 'chosen-by-operator' });
    expect(await login(running.url, ADMIN_EMAIL, 'chosen-by-operator')).toBe(200);
    await running.stop();
    // Unset again: the operator's choice stays (no silent reset to the file's).
    const after = await start();
    expect(await login(after.running.url, ADMIN_EMAIL, 'chosen-by-operator')).toBe(200);
    await after.running.stop();
  });

  it('when the admin changed their password in the shop, then a restart with the same ADMIN_PASSWORD keeps it; a new ADMIN_PASSWORD resets it', async () => {
    const first = await start({ ADMIN_PASSWORD: 'operator-password-1' });
    const signIn = await fetch(`${first.running.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: 'operator-password-1' }),
    });
    const { token } = (await signIn.json()) as { token: string };
    const changed = await fetch(`${first.running.url}/api/account/password`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ current_password: 'operator-password-1', new_password: 'chosen-by-the-admin' }),
    });
    expect(changed.status).toBe(200);
    await first.running.stop();
    // The same setting on the next start (compose, several gateways): the admin's choice stands.
    const again = await start({ ADMIN_PASSWORD: 'operator-password-1' });
    expect(await login(again.running.url, ADMIN_EMAIL, 'chosen-by-the-admin')).toBe(200);
    expect(await login(again.running.url, ADMIN_EMAIL, 'operator-password-1')).toBe(401);
    await again.running.stop();
    // The operator sets a new one (a reset): it is the password.
    const reset = await start({ ADMIN_PASSWORD: 'operator-password-2' });
    expect(await login(reset.running.url, ADMIN_EMAIL, 'operator-password-2')).toBe(200);
    expect(await login(reset.running.url, ADMIN_EMAIL, 'chosen-by-the-admin')).toBe(401);
    await reset.running.stop();
  });

  it('when a first start has no ADMIN_PASSWORD and a new database, then a password is generated and only it works', async () => {
    const fresh = await createTestDatabase('admin2');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-admin2-'));
    try {
      const running = await startAll({
        port: 0,
        databaseUrl: fresh.url,
        dataDir: dir,
        webDist: path.join(dir, 'none'),
        env: { ADMIN_EMAIL: 'boss@example.com' },
      });
      const generated = (await readFile(path.join(dir, 'admin-password'), 'utf8')).trim();
      expect(await login(running.url, 'boss@example.com', generated)).toBe(200);
      expect(await login(running.url, 'boss@example.com', 'admin-password')).toBe(401);
      await running.stop();
    } finally {
      await fresh.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('when ADMIN_PASSWORD is too short, then the start stops and names it', async () => {
    await expect(start({ ADMIN_PASSWORD: 'short' })).rejects.toThrow(/ADMIN_PASSWORD/);
  });
});
