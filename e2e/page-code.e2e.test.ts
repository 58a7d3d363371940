import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { markNoReload, stillSamePage } from './support/live';
import { api, card, expectToast, logInFromHome, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

const mainNav = (page: import('playwright-core').Page) => page.getByRole('navigation', { name: 'Main' });
const cannotOpen = (page: import('playwright-core').Page) => page.getByRole('alert').filter({ hasText: 'Could not open this page.' });

test('when the server cannot be reached and a page not opened yet is chosen, then the app stays and says so with Retry, and the page opens by itself once back online', async () => {
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

  // Back online, the page comes with no Retry pressed and no reload (Retry stays for a page whose
  // file is missing while the server answers, which only a press may reload: the next test).
  await page.context().setOffline(false);
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

test('when the connection drops while the profile’s forms are on their way, then the profile stays, the forms say so, and they come by themselves once back online', async () => {
  const email = uniqueEmail('seller');
  await api(baseUrl).signup(`Comilla Screens ${Date.now()}`, email, 'Seller');
  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  // The forms' code is held on its way, as on a slow phone, until the connection is gone.
  let dropped: () => void = () => undefined;
  const gone = new Promise<void>((resolve) => (dropped = resolve));
  await page.route(/\/assets\/end-sessions-[^/]*\.js$/, async (route) => {
    await gone;
    await route.abort('internetdisconnected');
  });
  await markNoReload(page);
  await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await page.locator('.profile-card__verification').getByText('Pending', { exact: true }).waitFor();

  await page.context().setOffline(true);
  dropped();
  const alert = page.getByRole('alert').filter({ hasText: 'Could not load the forms to change your name, photo and password.' });
  await alert.getByText('The server could not be reached.').waitFor();
  // Only the forms: the profile is still there, and not the page's own error.
  expect(await page.locator('.profile-card__verification').getByText('Pending', { exact: true }).count()).toBe(1);
  expect(await page.getByText('Something went wrong on this page.').count()).toBe(0);
  expect(await cannotOpen(page).count()).toBe(0);
  await snap(page, '16-part-code-unreachable');

  // Back online, the forms are downloaded again with no Retry pressed and no reload.
  await page.unroute(/\/assets\/end-sessions-[^/]*\.js$/);
  await page.context().setOffline(false);
  await page.getByRole('heading', { name: 'Sign out everywhere' }).waitFor();
  await page.getByRole('heading', { name: 'Change password' }).waitFor();
  expect(await alert.count()).toBe(0);
  expect(await stillSamePage(page)).toBe(true);
});

test('when Book Now or Add Report is pressed offline before its dialog’s code has come, then the buyer is told, no dialog opens, and Book Now opens it once back online', async () => {
  const productName = `Walton 32" ${Date.now()}`;
  await sellerWithProduct(baseUrl, 'Bogura Electronics', productName);
  const email = uniqueEmail('buyer');
  await api(baseUrl).signup('Tania Buyer', email, 'Buyer');
  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.goto('/all_products');
  const bookNow = card(page, productName).getByRole('button', { name: 'Book Now' });
  await bookNow.waitFor();
  await markNoReload(page);

  await page.context().setOffline(true);
  await bookNow.click();
  await expectToast(page, 'Could not open the booking form. The server could not be reached.');
  expect(await page.getByRole('dialog').count()).toBe(0);
  expect(await page.getByText('Something went wrong on this page.').count()).toBe(0);
  // The focus is back on the button pressed, for another try.
  await expect.poll(() => page.evaluate("document.activeElement?.textContent ?? ''")).toBe('Book Now');
  // So is a buyer who presses Add Report: its dialog's code is fetched first too.
  await card(page, productName).getByRole('button', { name: 'Add Report' }).click();
  await expectToast(page, 'Could not open the report form. The server could not be reached.');
  expect(await page.getByRole('dialog').count()).toBe(0);

  await page.context().setOffline(false);
  await bookNow.click();
  await page.getByRole('dialog').getByLabel('Phone Number').waitFor();
  expect(await stillSamePage(page)).toBe(true);
});
