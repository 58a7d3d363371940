import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { waitLive } from './support/live';
import { api, expectToast, logInFromHome, onEmptyMyOrdersLive, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a buyer signs out everywhere else from their profile, then their other browser is signed out, this one goes on, and the password still signs in', async () => {
  const email = uniqueEmail('buyer');
  await api(baseUrl).signup('Rina Buyer', email, 'Buyer');

  // The same account left signed in on another computer, live on My Orders.
  const other = await newPage();
  await onEmptyMyOrdersLive(other, email, PASSWORD);

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  const section = page.getByRole('region', { name: 'Sign out everywhere else' });
  await section.getByRole('button', { name: 'Sign out everywhere else' }).click();
  // Asked first; Cancel changes nothing.
  await section.getByRole('button', { name: 'Cancel' }).click();
  await section.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await section.getByText('Sign this account out of every other browser and device?').waitFor();
  await waitLive(page);
  await section.getByRole('button', { name: 'Yes, sign out everywhere else' }).click();
  await expectToast(page, 'Signed out everywhere else.');
  await section.getByRole('status').getByText('Every other session of this account was signed out.').waitFor();

  // The other computer is signed out and sent to login, saying why.
  await expectToast(other, 'Your session has ended. Please log in again.');
  await other.waitForURL('**/login');
  await snap(page, '18-signed-out-everywhere');
  expect(await other.evaluate("localStorage.getItem('TV_Shop_Token')")).toBeNull();

  // Here the session goes on with the new token: pages load, and the live connection is back.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }).click();
  await page.getByText('No Order Available').waitFor();
  await waitLive(page);
  expect(await page.getByText('Your session has ended').count()).toBe(0);

  // The password did not change: the other computer signs in again with it.
  await other.getByLabel('Email').fill(email);
  await other.getByLabel('Password').fill(PASSWORD);
  await other.getByRole('button', { name: 'Login' }).click();
  await other.waitForURL('**/dashboard/my_order');
});
