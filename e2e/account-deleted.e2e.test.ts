import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { ADMIN, api, expectToast, onEmptyMyOrdersLive, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when the admin deletes a signed-in buyer, then the buyer is signed out and sent to login', async () => {
  const email = uniqueEmail('buyer');
  const { user } = await api(baseUrl).signup('Doomed Buyer', email, 'Buyer');
  const page = await newPage();
  await onEmptyMyOrdersLive(page, email, PASSWORD);
  // A second tab of the same browser, on All Products, without a live connection of its own: it
  // can learn of the deletion only from the first tab's sign-out (the storage event).
  const tab = await page.context().newPage();
  await tab.route('**/socket.io/**', (route) => route.abort());
  await tab.goto('/all_products');
  await tab.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log Out' }).waitFor();

  const { token: adminToken } = await api(baseUrl).login(ADMIN.email, ADMIN.password);
  // Both toasts are watched for from before the deletion, whose answer waits for every read model.
  const told = expectToast(page, 'Your account was deleted, so you were signed out.');
  const toldInTab = expectToast(tab, 'Your account was deleted, so you were signed out.');
  told.catch(() => undefined);
  toldInTab.catch(() => undefined);
  await api(baseUrl).deleteUser(adminToken, user._id);

  // The server closes the buyer's socket; the app checks the session, hears 401, and signs out, saying why (not "log in again": it cannot).
  await told;
  // The other tab says the same: not "log in again", which cannot help.
  await toldInTab;
  await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).waitFor();
  expect(await tab.getByText('Please log in again').count()).toBe(0);
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  // The login page says why, in the server's words: not "log in to open that page".
  await page.getByRole('status').getByText('Your session ended: this account no longer exists.').waitFor();
  expect(await page.getByText('Log in to open that page').count()).toBe(0);
  expect(await page.evaluate("localStorage.getItem('TV_Shop_Token')")).toBeNull();
  expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).count()).toBe(1);
  // Login would bring them back where they were.
  expect(await page.evaluate('history.state?.usr?.from?.pathname')).toBe('/dashboard/my_order');
  await snap(page, '8-account-deleted-login');
  // The reason is said once: whoever uses this browser next and opens a guarded page is told the guard's own.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('status').getByText('Log in to open that page. You will come back to it afterwards.').waitFor();
  expect(await page.getByText('this account no longer exists').count()).toBe(0);
});
