import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { useBrowser } from './support/browser';
import { waitLive } from './support/live';
import { api, card, listTv, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

/** The product cards' names on the page, top to bottom. */
const namesOn = (page: Page) => page.locator('article.product-card .product-card__title').allTextContents();

test('when a TV sold before a list was read is for sale again, then it comes into the open search and seller page in its place, live', async () => {
  const client = api(baseUrl);
  // Other journeys list TVs too; the tag makes this journey's search its own.
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const { token, user } = await client.signup(`Comeback TV ${tag}`, uniqueEmail('seller'), 'Seller');
  const older = `Sharp ${tag} older`;
  const newer = `Sharp ${tag} newer`;
  const olderId = (await listTv(baseUrl, token, older)).insertedId!;
  await listTv(baseUrl, token, newer);
  await client.markSold(token, olderId);

  // Read while the older one is sold: neither the search nor the seller's page holds it.
  const search = await newPage();
  await search.goto(`/all_products?q=${tag}`);
  await card(search, newer).waitFor();
  await waitLive(search);
  expect(await card(search, older).count()).toBe(0);
  const seller = await newPage();
  await seller.goto(`/sellers/${user._id}`);
  await card(seller, newer).waitFor();
  await waitLive(seller);
  expect(await card(seller, older).count()).toBe(0);

  // Its seller makes it available again: nothing on either page would otherwise bring it back.
  const res = await fetch(`${baseUrl}/api/product/unsold_status/${olderId}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(200);
  await card(search, older).waitFor();
  // In its place by the search's sort (newest first): below the newer one, not on top.
  await expect.poll(() => namesOn(search)).toEqual([newer, older]);
  await expect.poll(() => search.locator('.search-results__count').textContent()).toBe('2 TVs');
  await card(seller, older).waitFor();
  await expect.poll(() => namesOn(seller)).toEqual([newer, older]);
});
