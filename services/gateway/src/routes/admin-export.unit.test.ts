import express from 'express';
import type { LogEvent } from '@tv-shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayDeps } from '../deps';
import { problemHandler } from '../http/problem';
import { listen } from '../testing/listen';
import { adminRoutes } from './admin';

/**
 * The export of the event log when the database fails: before its first page the answer is the
 * 503 any read gives (problem+json, Retry-After), not a download cut short; after it, the download
 * is cut short so that it cannot pass for a whole one.
 */
describe('the event log export, when the database fails', () => {
  let base: string;
  let close: () => void;
  let failAt = 0;
  let returned = 0;
  /** Each page's events: large ones fill the socket's buffer, so the export waits for the client. */
  let perPage = 1;
  const refused = Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
  const event = { position: 1, type: 'ProductListed', data: { details: 'x'.repeat(1000) } } as unknown as LogEvent;

  beforeAll(async () => {
    const audit = {
      async *all() {
        try {
          for (let page = 0; ; page++) {
            if (page === failAt) throw refused;
            yield Array.from({ length: perPage }, () => event);
          }
        } finally {
          returned++;
        }
      },
    };
    const deps = {
      reads: { audit },
      // The read's wait for the log's checkpoint fails too, and is let pass, as it is in the route.
      pool: { query: () => Promise.reject(refused) },
      position: () => 0,
    } as unknown as GatewayDeps;
    const app = express();
    app.use((req, _res, next) => {
      req.user = { _id: 'a1', role: 'Admin', name: 'Admin', email: 'admin@example.com' } as typeof req.user;
      next();
    });
    app.use('/api', adminRoutes(deps));
    app.use(problemHandler);
    ({ base, close } = await listen(app));
  });
  afterAll(() => close());

  it('when its first page cannot be read, then 503 problem+json with Retry-After, and no attachment', async () => {
    failAt = 0;
    const res = await fetch(`${base}/api/admin/events/export?format=csv`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('content-disposition')).toBeNull();
  });

  it('when a later page cannot be read, then the download is cut short and the log read is closed', async () => {
    failAt = 2;
    const before = returned;
    // Cut as its status line goes or after: either way the client never sees a whole download.
    const outcome = await fetch(`${base}/api/admin/events/export`)
      .then((res) => res.text())
      .then(
        () => 'whole',
        () => 'cut short',
      );
    expect(outcome).toBe('cut short');
    expect(returned).toBe(before + 1);
  });

  it('when the client leaves while the export waits for it to read, then the export ends and closes the log read', async () => {
    failAt = -1; // never: the log is endless, so only the client's leaving ends it
    perPage = 2000; // ~2 MB a page: more than the socket takes without the client reading
    const before = returned;
    const leave = new AbortController();
    const res = await fetch(`${base}/api/admin/events/export`, { signal: leave.signal });
    expect(res.status).toBe(200);
    await res.body!.getReader().read();
    leave.abort();
    // It waited for a 'drain' that never comes; now the client's leaving ends the wait.
    await expect.poll(() => returned, { timeout: 5_000 }).toBe(before + 1);
  });
});
