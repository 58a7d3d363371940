import type { Page } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { api, logInFromHome, openMyOrders, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

/**
 * Makes one API read fail with a server error, until the returned switch is flipped. Not a 503:
 * the app treats 502-504 as an outage and keeps what it knows (a signed-in user's role included).
 */
async function failing(page: Page, path: string, detail: string): Promise<{ heal(): void }> {
  let broken = true;
  await page.route(`**/api${path}`, (route) =>
    broken
      ? route.fulfill({
          status: 500,
          contentType: 'application/problem+json',
          body: JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail }),
        })
      : route.continue(),
  );
  return { heal: () => (broken = false) };
}

test('when a list cannot be loaded, then the page says so instead of an empty state, and Retry loads it', async () => {
  const page = await newPage();
  // All Products reads its first page through the search call.
  const products = await failing(page, '/products/search?**', 'The catalog is resting; try again shortly.');
  await page.goto('/all_products');
  const alert = page.getByRole('alert').filter({ hasText: 'Could not load the products.' });
  await alert.getByText('The catalog is resting; try again shortly.').waitFor();
  expect(await page.getByText(/^No TVs (match your search|for sale here right now)\./).count()).toBe(0);
  await snap(page, '10-all-products-load-error');

  products.heal();
  await alert.getByRole('button', { name: 'Retry' }).click();
  await page.getByText(/^[\d,]+ TVs?$/).waitFor();
  expect(await alert.count()).toBe(0);

  // The home page's categories say the same, in their own section.
  const categories = await failing(page, '/categories', 'Categories are being restocked.');
  await page.goto('/');
  const categoriesAlert = page.getByRole('alert').filter({ hasText: 'Could not load the categories.' });
  await categoriesAlert.getByText('Categories are being restocked.').waitFor();
  await snap(page, '10-home-categories-load-error');
  categories.heal();
  await categoriesAlert.getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('link', { name: 'Samsung' }).first().waitFor();
});

test('when the role check cannot be made, then the guard says so and offers Retry instead of redirecting', async () => {
  const email = uniqueEmail('buyer');
  await api(baseUrl).signup('Patient Buyer', email, 'Buyer');
  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  const check = await failing(page, '/users_buyer/**', 'The role service is restarting.');

  await openMyOrders(page);
  const alert = page.getByRole('alert').filter({ hasText: 'Could not check your access to this page.' });
  await alert.getByText('The role service is restarting.').waitFor();
  expect(new URL(page.url()).pathname).toBe('/dashboard/my_order');
  await snap(page, '10-role-check-error');

  check.heal();
  await alert.getByRole('button', { name: 'Retry' }).click();
  await page.getByText('No Order Available').waitFor();
});
