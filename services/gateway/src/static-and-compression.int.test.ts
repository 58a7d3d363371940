/**
 * What the gateway does for a phone on a slow network (ADR 0041): the web app's files as the build
 * precompressed them, by Accept-Encoding; hashed assets cached for a year, index.html revalidated;
 * a missing asset a 404, not the app; the API's JSON compressed, and the log's export still
 * streamed when it is.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { startAll, type Running } from '@tv-shop/shop';
import { PAGE_PRELOADS as WEB_PAGE_PRELOADS } from '../../../web/src/config/page-preloads';

const ADMIN = { email: 'admin@tvshop.test', password: 'admin-password-1' };
const SCRIPT = `export const app = ${JSON.stringify('TV Shop '.repeat(400))};\n`;
const SCRIPT_PATH = '/assets/index-Ab12Cd34.js';
const INDEX = `<!doctype html><html><head><title>TV Shop</title><script type="module" src="${SCRIPT_PATH}"></script></head><body></body></html>`;
/** As web/vite.config.ts writes it: each page's chunks beyond index.html's, and its first public reads. */
const PAGE_PRELOADS = {
  pages: [
    { path: '/', modules: ['/assets/home-Aa11.js'], styles: [], reads: ['/api/advertise_products'] },
    { path: '/products/:id', modules: ['/assets/product-Bb22.js'], styles: ['/assets/product-Cc33.css'], reads: ['/api/product/:id'] },
    { path: '/dashboard', modules: ['/assets/profile-Dd44.js'], styles: [], reads: [] },
  ],
};

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** How many pieces the body arrived in. */
  pieces: number;
}

/** A request as a browser makes it, the body as it came over the wire (not decompressed). */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), pieces: parts.length }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('static files and compression', () => {
  let db: TestDatabase;
  let dataDir: string;
  let running: Running;
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase('static');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-static-'));
    // A tiny build, as web/vite.config.ts writes it: each asset with its .br and .gz beside it.
    const dist = path.join(dataDir, 'dist');
    await mkdir(path.join(dist, 'assets'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), INDEX);
    await writeFile(path.join(dist, 'page-preloads.json'), JSON.stringify(PAGE_PRELOADS));
    await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(path.join(dist, SCRIPT_PATH), SCRIPT);
    await writeFile(path.join(dist, `${SCRIPT_PATH}.br`), brotliCompressSync(SCRIPT));
    await writeFile(path.join(dist, `${SCRIPT_PATH}.gz`), gzipSync(SCRIPT));
    running = await startAll({
      port: 0,
      databaseUrl: db.url,
      dataDir,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      webDist: dist,
      env: {},
    });
    base = running.url;
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('given a browser that takes brotli, when it loads a hashed script, then the .br copy comes, cached for a year', async () => {
    const res = await get(`${base}${SCRIPT_PATH}`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.equals(brotliCompressSync(SCRIPT))).toBe(true);
    expect(res.body.length).toBeLessThan(SCRIPT.length / 5);
  });

  it('given a browser that takes gzip only (or refuses brotli), when it loads the script, then the .gz copy comes', async () => {
    for (const accept of ['gzip', 'gzip, br;q=0']) {
      const res = await get(`${base}${SCRIPT_PATH}`, { 'Accept-Encoding': accept });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(gunzipSync(res.body).toString()).toBe(SCRIPT);
    }
  });

  it('given a client that asks for no encoding, when it loads the script, then it gets the file itself', async () => {
    const res = await get(`${base}${SCRIPT_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.body.toString()).toBe(SCRIPT);
  });

  it('when the app is opened at any page, then index.html comes revalidated, and a missing asset is a 404', async () => {
    for (const page of ['/', '/all_products', '/dashboard/my_order']) {
      const res = await get(`${base}${page}`, { 'Accept-Encoding': 'br, gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body.toString()).toContain(SCRIPT_PATH);
    }
    const icon = await get(`${base}/favicon.svg`);
    expect(icon.headers['cache-control']).toBe('no-cache');

    const stale = await get(`${base}/assets/index-0ld0ld00.js`, { 'Accept-Encoding': 'br' });
    expect(stale.status).toBe(404);
    expect(stale.headers['content-type']).not.toMatch(/html/);
  });

  it("when a page is opened, then its HTML names that page's code and first public reads as preloads, and only those", async () => {
    const head = (body: Buffer) => body.toString().slice(0, body.toString().indexOf('</head>'));
    const product = head((await get(`${base}/products/3f1c-a9_b`)).body);
    expect(product).toContain('<link rel="modulepreload" href="/assets/product-Bb22.js">');
    expect(product).toContain('<link rel="preload" as="style" crossorigin href="/assets/product-Cc33.css">');
    expect(product).toContain('<link rel="preload" as="fetch" crossorigin="anonymous" href="/api/product/3f1c-a9_b">');
    expect(product).not.toContain('home-Aa11');

    const home = head((await get(`${base}/`)).body);
    expect(home).toContain('href="/assets/home-Aa11.js"');
    expect(home).toContain('href="/api/advertise_products"');

    // A query string may change what the page reads: its code only.
    const searched = head((await get(`${base}/products/abc?photo=2`)).body);
    expect(searched).toContain('/assets/product-Bb22.js');
    expect(searched).not.toContain('/api/product/');

    // An id that is no id is never written into the page.
    const hostile = (await get(`${base}/products/${encodeURIComponent('"><script>alert(1)</script>')}`)).body.toString();
    expect(hostile).not.toContain('alert(1)');
    expect(hostile).not.toContain('as="fetch"');
    expect(hostile.match(/<script/g)).toHaveLength(1);

    // A page with no entry (or a deeper path) comes as built; the preloads change the body, and its ETag with it.
    const plain = await get(`${base}/blogs`);
    expect(plain.body.toString()).toBe(INDEX);
    const again = await get(`${base}/products/3f1c-a9_b`, {
      'If-None-Match': String((await get(`${base}/products/3f1c-a9_b`)).headers.etag),
    });
    expect(again.status).toBe(304);
    expect((await get(`${base}/products/other`)).headers.etag).not.toBe((await get(`${base}/products/3f1c-a9_b`)).headers.etag);
  });

  it('given a browser that takes gzip, when it reads the API, then the JSON comes compressed', async () => {
    // Enough listings for an answer above compression's 1 KB threshold.
    const seller = await signup('Seller');
    for (let i = 0; i < 3; i++) await addProduct(seller.token, 'x'.repeat(600));
    const res = await get(`${base}/api/all_products`, { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(JSON.parse(gunzipSync(res.body).toString())).toHaveLength(3);
  });

  it('given a large log, when the admin exports it compressed, then it streams (chunked, in pieces) and holds what the plain export holds', async () => {
    // Details that do not compress away, so the export's gzip is still several of zlib's pieces.
    for (let s = 0; s < 2; s++) {
      const seller = await signup('Seller');
      for (let i = 0; i < 20; i++) await addProduct(seller.token, randomBytes(900).toString('hex'));
    }
    const { token } = await json<{ token: string }>('/auth/login', ADMIN);
    const auth = { Authorization: `Bearer ${token}` };
    const plain = await get(`${base}/api/admin/events/export`, auth);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(100_000);

    const packed = await get(`${base}/api/admin/events/export`, { ...auth, 'Accept-Encoding': 'gzip' });
    expect(packed.status).toBe(200);
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(packed.headers['transfer-encoding']).toBe('chunked');
    expect(packed.headers['content-length']).toBeUndefined();
    expect(packed.pieces).toBeGreaterThan(1);
    const lines = gunzipSync(packed.body).toString().trim().split('\n');
    expect(lines.length).toBe(plain.body.toString().trim().split('\n').length);
    expect(lines.every((l) => typeof JSON.parse(l).type === 'string')).toBe(true);

    const csv = await get(`${base}/api/admin/events/export?format=csv`, { ...auth, 'Accept-Encoding': 'gzip' });
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(csv.body).toString().split('\r\n')[0]).toMatch(/^position,at,type/);
  }, 120_000);

  it("given the reads the web app's pages name as preloads, then each answers a visitor and a signed-in buyer alike", async () => {
    // A preload carries no token, and the browser hands its answer to the page's own fetch,
    // which would carry one: a read named there must not depend on who asks.
    const seller = await signup('Seller');
    await addProduct(seller.token, 'A listing for the public reads.');
    const product = ((await (await fetch(`${base}/api/all_products`)).json()) as { _id: string; sellerId?: string }[])[0]!;
    const buyer = await signup('Buyer');
    const reads = new Set(WEB_PAGE_PRELOADS.flatMap((page) => page.reads));
    expect(reads.size).toBeGreaterThan(3);
    const page = (await (await fetch(`${base}/api/product/${product._id}`)).json()) as { seller: { _id: string } };
    const idFor = (read: string) =>
      read.startsWith('/api/sellers/') ? page.seller._id : read.includes('product') ? product._id : 'samsung';
    for (const read of reads) {
      const url = `${base}${read.replace(':id', idFor(read))}`;
      const visitor = await fetch(url);
      const signedIn = await fetch(url, { headers: { Authorization: `Bearer ${buyer.token}` } });
      expect([read, visitor.status]).toEqual([read, 200]);
      const strip = (body: string) => body.replace(/"position":\d+/g, '');
      expect(strip(await signedIn.text())).toBe(strip(await visitor.text()));
    }
  }, 120_000);

  async function json<T>(p: string, body: unknown, token?: string): Promise<T> {
    const res = await fetch(`${base}/api${p}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${p} -> ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
  let n = 0;
  function signup(role: 'Seller' | 'Buyer') {
    n++;
    return json<{ token: string }>('/auth/signup', {
      name: `${role} ${n}`,
      email: `${role.toLowerCase()}${n}@static.test`,
      password: 'secret-pass',
      role,
    });
  }
  function addProduct(token: string, details: string) {
    return json(
      '/products',
      {
        porduct_name: 'Samsung 43" UHD',
        productImage: 'https://example.com/tv.png',
        details,
        location: 'Dhaka',
        resale_price: 25000,
        orginal_price: 52000,
        use_duration: '2 years',
        phone_number: '01711111111',
        product_condition: 'Good',
        category_id: 'samsung',
      },
      token,
    );
  }
});
