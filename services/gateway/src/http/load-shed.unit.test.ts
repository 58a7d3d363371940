import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shedWrites } from './load-shed';
import { problemHandler } from './problem';
import { listen } from '../testing/listen';

describe('graceful overload', () => {
  let base: string;
  let close: () => void;
  const gates: (() => void)[] = [];
  beforeAll(async () => {
    const app = express();
    app.use(shedWrites(2, 3));
    // A write that finishes only when the test lets it: the number in flight is then known.
    app.post('/slow', (_req, res) => void gates.push(() => res.json({ ok: true })));
    app.get('/slow', (_req, res) => void res.json({ read: true }));
    app.use(problemHandler);
    ({ base, close } = await listen(app));
  });
  afterAll(() => close());

  it('when more writes arrive than the limit, then the excess is refused at once with 503 and Retry-After, reads still pass, and room frees up as writes finish', async () => {
    const first = fetch(`${base}/slow`, { method: 'POST' });
    const second = fetch(`${base}/slow`, { method: 'POST' });
    while (gates.length < 2) await new Promise((r) => setTimeout(r, 5));
    const refused = await fetch(`${base}/slow`, { method: 'POST' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/busy/);
    expect((await fetch(`${base}/slow`)).status).toBe(200);
    gates.shift()!();
    expect((await first).status).toBe(200);
    const third = fetch(`${base}/slow`, { method: 'POST' });
    while (gates.length < 2) await new Promise((r) => setTimeout(r, 5));
    gates.splice(0).forEach((go) => go());
    expect([(await second).status, (await third).status]).toEqual([200, 200]);
  });

  it('when a client goes away mid-write, then its place is given back', async () => {
    const controller = new AbortController();
    const gone = fetch(`${base}/slow`, { method: 'POST', signal: controller.signal }).catch(() => null);
    const other = fetch(`${base}/slow`, { method: 'POST' });
    while (gates.length < 2) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await gone;
    await new Promise((r) => setTimeout(r, 50));
    const next = fetch(`${base}/slow`, { method: 'POST' });
    while (gates.length < 3) await new Promise((r) => setTimeout(r, 5));
    gates.splice(0).forEach((go) => go());
    expect([(await other).status, (await next).status]).toEqual([200, 200]);
  });
});
