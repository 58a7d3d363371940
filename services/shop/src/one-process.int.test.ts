import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@tv-shop/platform';
import { startAll } from './start';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async (res: Response): Promise<any> => res.json();

describe('one-process mode with the embedded PostgreSQL', () => {
  it('when TV Shop is stopped and started again on the same data dir, then its events and accounts are still there', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-restart-'));
    const opts = {
      port: 0,
      dataDir,
      adminEmail: 'admin@tvshop.test',
      adminPassword: 'admin-password-1',
      webDist: path.join(dataDir, 'none'),
      // The detail (database mode, head, projections) is read where operators read it: the internal listener.
      env: { METRICS_PORT: String(await freePort()) },
    };
    try {
      const first = await startAll(opts);
      expect(await json(await fetch(`${first.url}/api/health`))).toEqual({ status: 'ok' });
      const health1 = await json(await fetch(`${first.metricsUrl}/health`));
      expect(health1).toMatchObject({ status: 'ok', database: { ok: true, mode: 'embedded' } });
      const signup = await fetch(`${first.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rina', email: 'rina@example.com', password: 'secret-pass', role: 'Seller' }),
      });
      expect(signup.status).toBe(201);
      const head = (await json(await fetch(`${first.metricsUrl}/health`))).head;
      await first.stop();

      const second = await startAll(opts);
      const health2 = await json(await fetch(`${second.metricsUrl}/health`));
      expect(health2.head).toBe(head);
      expect(health2.projections.every((p: { lag: number }) => p.lag === 0)).toBe(true);
      const login = await fetch(`${second.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'rina@example.com', password: 'secret-pass' }),
      });
      expect(login.status).toBe(200);
      expect((await json(await fetch(`${second.url}/api/categories`))).length).toBe(6);
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
