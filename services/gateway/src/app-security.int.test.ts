import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLogger } from './app';
import { startTestShop, type TestShop } from './testing/harness';

/**
 * An Express app behind `requestLogger(level)`, with `routes`, listening for the enclosing
 * describe block; the JSON lines it logs, parsed, and its address once it listens.
 */
function loggedApp(level: string, routes: (app: express.Express) => void) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(requestLogger(level, sink));
  routes(app);
  const server = http.createServer(app);
  const logged = { lines, base: '' };
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    logged.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  return logged;
}

describe('security headers', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.stop());

  it('when any page or call is answered, then it carries a CSP that lets the app, Stripe Elements and its own socket work, and nothing else', async () => {
    for (const path of ['/', '/api/all_products', '/api/no-such-route']) {
      const res = await fetch(`${shop.url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directive = (name: string) => (csp.split(';').find((d) => d.trim().startsWith(`${name} `)) ?? '').trim().split(/\s+/).slice(1);
      expect(directive('default-src')).toEqual(["'self'"]);
      expect(directive('script-src')).toEqual(expect.arrayContaining(["'self'", 'https://js.stripe.com']));
      expect(directive('script-src')).not.toContain("'unsafe-inline'");
      expect(directive('script-src')).not.toContain("'unsafe-eval'");
      expect(directive('frame-src')).toContain('https://js.stripe.com');
      const host = new URL(shop.url).host;
      expect(directive('connect-src')).toEqual(expect.arrayContaining(["'self'", 'https://api.stripe.com', `ws://${host}`]));
      expect(directive('object-src')).toEqual(["'none'"]);
      expect(directive('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-powered-by')).toBeNull();
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("when a signed-in caller reads, then no cache may keep the answer (it may hold personal data); a visitor's public read says nothing of it", async () => {
    const admin = await shop.admin();
    const buyer = await shop.signup('Buyer');
    for (const [path, token] of [
      ['/users_role?role=Buyer', admin.token],
      ['/reported_products', admin.token],
      [`/bookings?email=${encodeURIComponent(buyer.user.email)}`, buyer.token],
      ['/all_products', buyer.token],
    ] as const) {
      const res = await shop.call('GET', path, { token });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    expect((await shop.call('GET', '/all_products')).headers.get('cache-control')).toBeNull();
  });
});

describe('request logs', () => {
  const logged = loggedApp('info', (app) => {
    app.use(express.json());
    app.post('/api/auth/login', (_req, res) => void res.status(401).json({ status: 401 }));
    app.get('/api/jwt', (_req, res) => void res.set('Set-Cookie', 'session=cookie-secret-value').json({ token: 'answer-token-value' }));
    app.get('/api/slow', (_req, res) => void setTimeout(() => res.json({ late: true }), 300));
  });
  const { lines } = logged;

  it('when requests carry passwords, tokens and cookies, then each is one JSON line with method, url and status, and none of the secrets', async () => {
    await fetch(`${logged.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer header-token-value', cookie: 'sid=cookie-value' },
      body: JSON.stringify({ email: 'a@b.co', password: 'body-password-value' }),
    });
    await fetch(`${logged.base}/api/jwt?email=a@b.co&token=query-token-value`, {
      headers: { 'stripe-signature': 't=1,v1=signature-value' },
    });
    await expect.poll(() => lines.length).toBe(2);
    const text = JSON.stringify(lines);
    for (const secret of [
      'header-token-value',
      'cookie-value',
      'body-password-value',
      'query-token-value',
      'signature-value',
      'cookie-secret-value',
      'answer-token-value',
    ])
      expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({
      level: 40,
      req: { method: 'POST', url: '/api/auth/login', headers: { authorization: '[redacted]', cookie: '[redacted]' } },
      res: { statusCode: 401 },
    });
    expect(lines[1]).toMatchObject({ level: 30, req: { url: '/api/jwt?email=a@b.co&token=[redacted]' }, res: { statusCode: 200 } });
    expect(typeof lines[1]!.responseTime).toBe('number');
  });
  it('when the client goes away before the answer, then the line says the request was aborted, with no status, and where it came from', async () => {
    const before = lines.length;
    await expect(fetch(`${logged.base}/api/slow`, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    await expect.poll(() => lines.length).toBe(before + 1);
    expect(lines[before]).toMatchObject({
      level: 30,
      msg: 'request aborted',
      req: { url: '/api/slow', remoteAddress: '127.0.0.1' },
      res: { statusCode: null },
    });
  });
});

describe('request logs at LOG_LEVEL=error', () => {
  const logged = loggedApp('error', (app) => {
    app.get('/api/fine', (_req, res) => void res.json({ ok: true }));
    app.get('/api/refused', (_req, res) => void res.status(409).json({ status: 409 }));
    app.get('/api/outage', (_req, res) => void res.status(503).json({ status: 503 }));
    app.get('/api/not-configured', (_req, res) => void res.status(501).json({ status: 501 }));
    app.get('/api/broken', (_req, res) => void res.status(500).json({ status: 500 }));
  });
  const { lines } = logged;

  it('when requests succeed, are refused, meet an outage or a feature not configured, then nothing is written; a 500 is one line with its status and the id the caller sent', async () => {
    for (const path of ['/api/fine', '/api/refused', '/api/outage', '/api/not-configured'])
      expect((await fetch(`${logged.base}${path}`)).status).toBeLessThan(600);
    const broken = await fetch(`${logged.base}/api/broken`, {
      headers: { 'x-request-id': 'trace-42', authorization: 'Bearer hidden-token' },
    });
    expect(broken.headers.get('x-request-id')).toBe('trace-42');
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      component: 'gateway',
      msg: 'request errored',
      req: { id: 'trace-42', method: 'GET', url: '/api/broken', headers: { authorization: '[redacted]' } },
      res: { statusCode: 500 },
      err: { type: 'Error', message: 'failed with status code 500' },
    });
    expect(typeof lines[0]!.responseTime).toBe('number');
  });
});
