import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLogger } from './app';
import { startTestShop, type TestShop } from './testing/harness';

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
});

describe('request logs', () => {
  let server: http.Server;
  let base: string;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const app = express();
    app.use(requestLogger('info', sink));
    app.use(express.json());
    app.post('/api/auth/login', (_req, res) => void res.status(401).json({ status: 401 }));
    app.get('/api/jwt', (_req, res) => void res.set('Set-Cookie', 'session=cookie-secret-value').json({ token: 'answer-token-value' }));
    server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('when requests carry passwords, tokens and cookies, then each is one JSON line with method, url and status, and none of the secrets', async () => {
    await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer header-token-value', cookie: 'sid=cookie-value' },
      body: JSON.stringify({ email: 'a@b.co', password: 'body-password-value' }),
    });
    await fetch(`${base}/api/jwt?email=a@b.co&token=query-token-value`, { headers: { 'stripe-signature': 't=1,v1=signature-value' } });
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
});
