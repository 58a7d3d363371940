import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { markNoReload, stillSamePage } from './support/live';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

const mainNav = (page: import('playwright-core').Page) => page.getByRole('navigation', { name: 'Main' });
const cannotOpen = (page: import('playwright-core').Page) => page.getByRole('alert').filter({ hasText: 'Could not open this page.' });

test('when the server cannot be reached and a page not opened yet is chosen, then the app stays and says so with Retry, and Retry opens it once back', async () => {
  const page = await newPage();
  await page.goto('/');
  await mainNav(page).getByRole('link', { name: 'Blogs' }).waitFor();
  await markNoReload(page);

  await page.context().setOffline(true);
  await mainNav(page).getByRole('link', { name: 'Blogs' }).click();
  const alert = cannotOpen(page);
  await alert.getByText('The server could not be reached.').waitFor();
  // Not the browser's own error page: the same document, its header and menu still there.
  expect(await stillSamePage(page)).toBe(true);
  expect(await mainNav(page).getByRole('link', { name: 'All Products' }).count()).toBe(1);
  expect(new URL(page.url()).pathname).toBe('/blogs');
  await snap(page, '16-page-code-unreachable');

  await page.context().setOffline(false);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('heading', { name: 'Read Our Blogs' }).waitFor();
  expect(await cannotOpen(page).count()).toBe(0);
  expect(await stillSamePage(page)).toBe(true);
});

test('when a page’s code is gone while the server answers (a deploy replaced the build), then the page reloads once for the new build, and says so if that did not help', async () => {
  const page = await newPage();
  await page.goto('/');
  await mainNav(page).getByRole('link', { name: 'Blogs' }).waitFor();
  let gone = true;
  // The Blogs page's own chunk, as the old build named it, is no longer on the server.
  await page.route(/\/assets\/blogs-[^/]*\.js$/, (route) => (gone ? route.fulfill({ status: 404, body: 'Not Found' }) : route.continue()));
  await markNoReload(page);

  await mainNav(page).getByRole('link', { name: 'Blogs' }).click();
  const alert = cannotOpen(page);
  // Reloaded once (the mark is gone), and the page's code still missing: it says so in place.
  await alert.getByText('Its code could not be downloaded; reload the page if Retry does not help.').waitFor();
  expect(await stillSamePage(page)).toBe(false);
  expect(new URL(page.url()).pathname).toBe('/blogs');

  gone = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('heading', { name: 'Read Our Blogs' }).waitFor();
});
