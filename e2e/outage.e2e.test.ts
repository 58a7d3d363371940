import type { Page } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import { api, card, logInFromHome, PASSWORD, sellerWithProduct } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

const reconnecting = (page: Page) => page.getByRole('status').filter({ hasText: 'Reconnecting...' });

test('when the connection drops, then a small banner says Reconnecting... over the list it keeps, and once back the banner goes and a sale made meanwhile shows', async () => {
  const productName = `Singer 40" outage ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Rajshahi Electronics', productName);
  const page = await newPage();
  await page.goto('/all_products?sold=any');
  const productCard = card(page, productName);
  await productCard.getByText('Available', { exact: true }).waitFor();
  await waitLive(page);
  // The first connect says nothing.
  expect(await reconnecting(page).count()).toBe(0);
  await markNoReload(page);

  await page.context().setOffline(true);
  await waitLive(page, 'disconnected');
  await reconnecting(page).waitFor();
  await api(baseUrl).markSold(seller.token, seller.productId);
  // The list stays as it was, with no error in its place.
  expect(await productCard.getByText('Available', { exact: true }).count()).toBe(1);
  expect(await page.getByRole('alert').filter({ hasText: 'Could not load' }).count()).toBe(0);
  await snap(page, '15-outage-reconnecting');

  await page.context().setOffline(false);
  await reconnecting(page).waitFor({ state: 'detached', timeout: 15_000 });
  await productCard.getByText('Sold', { exact: true }).waitFor({ timeout: 10_000 });
  expect(await stillSamePage(page)).toBe(true);
  await snap(page, '15-outage-back');
});

test('when a signed-in seller moves between pages during an outage, then the page shows with what was loaded and a Retry, not "Could not check your access", and catches up once back', async () => {
  const productName = `Vision 32" outage ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Comilla TV Corner', productName);
  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  const dashboardNav = page.getByRole('navigation', { name: 'Dashboard' });

  // Every page's code is on the device before the network goes.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await dashboardNav.getByRole('link', { name: 'My Products' }).click();
  const row = page.locator('tr').filter({ hasText: productName });
  await row.waitFor();
  await dashboardNav.getByRole('link', { name: 'Profile' }).click();
  await dashboardNav.getByRole('link', { name: 'My Products' }).click();
  await row.waitFor();
  await waitLive(page);
  await markNoReload(page);

  await page.context().setOffline(true);
  await waitLive(page, 'disconnected');
  await reconnecting(page).waitFor();
  // Meanwhile the TV is sold elsewhere (the seller's other device).
  await api(baseUrl).markSold(seller.token, seller.productId);

  // Away and back: the role check and the list read both fail, and the page still shows.
  await dashboardNav.getByRole('link', { name: 'Profile' }).click();
  await dashboardNav.getByRole('link', { name: 'My Products' }).click();
  const stale = page.getByRole('status').filter({ hasText: 'Could not refresh this page; showing what was loaded before.' });
  await stale.waitFor();
  expect(await stale.getByRole('button', { name: 'Retry' }).count()).toBe(1);
  await row.waitFor();
  expect(await page.getByText('Could not check your access to this page.').count()).toBe(0);
  expect(await page.getByRole('alert').filter({ hasText: 'Could not load' }).count()).toBe(0);
  await snap(page, '15-outage-dashboard-kept');

  await page.context().setOffline(false);
  // Back online: nobody has to press Retry; the list is read again and the sale shows.
  await reconnecting(page).waitFor({ state: 'detached', timeout: 15_000 });
  await stale.waitFor({ state: 'detached', timeout: 10_000 });
  await row.getByText('Sold', { exact: true }).first().waitFor({ timeout: 10_000 });
  expect(await stillSamePage(page)).toBe(true);
  await snap(page, '15-outage-dashboard-back');
});
