#!/usr/bin/env node
// `npm run lighthouse [-- --dist DIR --runs N --port P --json FILE --reports DIR]`: starts TV Shop on a fresh embedded
// database with the demo listings (SEED_DEMO=1), signs a buyer in for /dashboard, and prints
// Lighthouse's performance, accessibility and best-practices scores (mobile preset, throttled as
// Lighthouse does) for `/`, `/all_products`, `/dashboard` and a product page: the median of N runs.
//
// Chromium: CHROME_PATH (default /usr/bin/chromium). The web app: --dist or WEB_DIST, else web/dist
// (built by `npm start` when missing or stale).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    dist: { type: 'string', default: process.env.WEB_DIST ?? '' },
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: process.env.PORT ?? '3789' },
    json: { type: 'string', default: '' },
    // Every run's full Lighthouse report, for finding out why a score is what it is.
    reports: { type: 'string', default: '' },
  },
});
const runs = Math.max(1, Number(opts.runs) || 3);
const base = `http://127.0.0.1:${opts.port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tv-shop-lighthouse-'));
const TOKEN_KEY = 'TV_Shop_Token'; // packages/contracts/src/protocol.ts: TOKEN_STORAGE_KEY
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

const server = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: root,
  detached: true,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: opts.port,
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    ADMIN_PASSWORD: 'lighthouse-admin-1',
    LOG_LEVEL: 'warn',
    METRICS_PORT: '0',
    ...(opts.dist ? { WEB_DIST: path.resolve(opts.dist) } : {}),
  },
});
let chrome;
const stop = () => {
  try {
    chrome?.kill();
  } catch {
    /* already gone */
  }
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});

async function waitForShop() {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The shop stopped (exit ${server.exitCode})`);
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('The shop did not start within 3 minutes');
}

async function json(p, init = {}) {
  const r = await fetch(`${base}/api${p}`, { ...init, headers: { 'Content-Type': 'application/json', ...init.headers } });
  if (!r.ok) throw new Error(`${init.method ?? 'GET'} ${p} -> ${r.status} ${await r.text()}`);
  return r.json();
}

async function productId() {
  // The demo seed is written through the event log; its listings reach the read model shortly.
  for (let i = 0; i < 120; i++) {
    const products = await json('/all_products');
    if (products.length > 0) return products[0]._id;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('The demo listings never appeared');
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  await waitForShop();
  const id = await productId();
  const { token } = await json('/auth/signup', {
    method: 'POST',
    body: JSON.stringify({ name: 'Lighthouse Buyer', email: 'lighthouse-buyer@tvshop.test', password: 'lighthouse-1', role: 'Buyer' }),
  });

  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });

  /** Puts the buyer's token in localStorage as the web app does, without loading the app. */
  const signIn = async (signedIn) => {
    const page = await browser.newPage();
    await page.goto(`${base}/favicon.svg`);
    await page.evaluate(
      (key, value) => (value ? globalThis.localStorage.setItem(key, value) : globalThis.localStorage.removeItem(key)),
      TOKEN_KEY,
      signedIn ? token : null,
    );
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  };

  const pages = [
    { name: '/', url: `${base}/` },
    { name: '/all_products', url: `${base}/all_products` },
    { name: '/products/:id', url: `${base}/products/${encodeURIComponent(id)}` },
    { name: '/dashboard', url: `${base}/dashboard`, signedIn: true },
  ];
  const results = [];
  for (const p of pages) {
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, []]));
    const metrics = { lcp: [], tbt: [], fcp: [], cls: [] };
    for (let i = 0; i < runs; i++) {
      // A trace that Chromium failed to record (NO_NAVSTART, NO_FCP on a busy machine) is run again.
      let lhr;
      for (let attempt = 1; ; attempt++) {
        await signIn(Boolean(p.signedIn));
        const result = await lighthouse(
          p.url,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: Boolean(p.signedIn) },
          undefined,
        );
        if (!result) throw new Error(`Lighthouse gave no result for ${p.url}`);
        lhr = result.lhr;
        if (!lhr.runtimeError) break;
        if (attempt === 3) throw new Error(`${p.url}: ${lhr.runtimeError.message}`);
        process.stderr.write(`  ${p.name} run ${i + 1}: ${lhr.runtimeError.code}, again\n`);
      }
      if (opts.reports) {
        const { mkdirSync, writeFileSync } = await import('node:fs');
        mkdirSync(opts.reports, { recursive: true });
        const slug = p.name.replace(/[^a-z]+/gi, '-').replace(/^-|-$/g, '') || 'home';
        writeFileSync(path.join(opts.reports, `${slug}-${i + 1}.json`), JSON.stringify(lhr));
      }
      for (const c of CATEGORIES) scores[c].push(Math.round((lhr.categories[c]?.score ?? 0) * 100));
      metrics.lcp.push(lhr.audits['largest-contentful-paint'].numericValue);
      metrics.fcp.push(lhr.audits['first-contentful-paint'].numericValue);
      metrics.tbt.push(lhr.audits['total-blocking-time'].numericValue);
      metrics.cls.push(lhr.audits['cumulative-layout-shift'].numericValue);
      process.stderr.write(`  ${p.name} run ${i + 1}: ${CATEGORIES.map((c) => scores[c].at(-1)).join(' / ')}\n`);
    }
    results.push({
      page: p.name,
      performance: median(scores.performance),
      accessibility: median(scores.accessibility),
      'best-practices': median(scores['best-practices']),
      'FCP s': (median(metrics.fcp) / 1000).toFixed(1),
      'LCP s': (median(metrics.lcp) / 1000).toFixed(1),
      'TBT ms': Math.round(median(metrics.tbt)),
      CLS: median(metrics.cls).toFixed(3),
      'perf runs': scores.performance.join(','),
    });
  }
  await browser.disconnect();
  console.log(`Lighthouse ${runs === 1 ? '(1 run)' : `(median of ${runs} runs)`}, mobile preset, simulated throttling`);
  console.table(results);
  if (opts.json) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(opts.json, JSON.stringify(results, null, 2));
  }
}

try {
  await main();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  stop();
  // Give the server a moment to stop its PostgreSQL before its data goes.
  await new Promise((r) => setTimeout(r, 3000));
  rmSync(dataDir, { recursive: true, force: true });
}
