import type { Page } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { useBrowser } from './support/browser';
import { sellerWithProduct } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

/** Opens the spec's client page (support/client-page.ts) served on `origin`, pointed at TV Shop. */
async function openClientAt(page: Page, origin: string) {
  await page.goto(`${origin}/?api=${encodeURIComponent(`${baseUrl}/api`)}`);
  await page.locator('body[data-done]').waitFor();
  return page.evaluate('document.body.dataset.done');
}

test("when the spec's client runs on an allowed origin, then a visitor sees the listings; on another origin the browser refuses", async () => {
  const productName = `Samsung Crystal 55" ${Date.now()}`;
  await sellerWithProduct(baseUrl, 'Bogura Electronics', productName);

  // Chromium itself applies CORS (the authorization header makes each call preflighted).
  const allowed = await newPage();
  const sentAuth: string[] = [];
  allowed.on('request', (r) => {
    if (r.url().startsWith(`${baseUrl}/api/`)) sentAuth.push(r.headers().authorization ?? '');
  });
  expect(await openClientAt(allowed, inject('clientOrigin'))).toBe('ok');
  await allowed.locator('#all li', { hasText: productName }).waitFor();
  await allowed.locator('#category li', { hasText: productName }).waitFor();
  expect(await allowed.locator('#error').textContent()).toBe('');

  const refused = await newPage();
  const messages: string[] = [];
  refused.on('console', (m) => messages.push(m.text()));
  expect(await openClientAt(refused, inject('otherOrigin'))).toBe('refused');
  expect(await refused.locator('#all li').count()).toBe(0);
  expect(await refused.locator('#error').textContent()).toMatch(/Failed to fetch/);
  expect(messages.join('\n')).toMatch(/blocked by CORS policy.*No 'Access-Control-Allow-Origin'/);
  // The visitor's calls carried the spec client's `bearer null`, and were answered as a visitor's.
  expect(sentAuth).toEqual(['bearer null', 'bearer null']);
});
