import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { api, expectToast, logInFromHome, onEmptyMyOrdersLive, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a buyer signs out everywhere from their profile, then every browser of theirs is signed out, and the password signs in again', async () => {
  const email = uniqueEmail('buyer');
  await api(baseUrl).signup('Rina Buyer', email, 'Buyer');

  // The same account left signed in on another computer, live on My Orders.
  const other = await newPage();
  await onEmptyMyOrdersLive(other, email, PASSWORD);

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  const section = page.getByRole('region', { name: 'Sign out everywhere' });
  await section.getByRole('button', { name: 'Sign out everywhere' }).click();
  // Asked first; Cancel changes nothing.
  await section.getByText('Sign this account out everywhere, here too?').waitFor();
  await snap(page, '18-sign-out-everywhere');
  await section.getByRole('button', { name: 'Cancel' }).click();
  await section.getByRole('button', { name: 'Sign out everywhere' }).click();
  // The other computer's toast is watched for from the click on: it may come before this page's.
  const otherTold = expectToast(other, 'Your session has ended. Please log in again.');
  otherTold.catch(() => undefined);
  await section.getByRole('button', { name: 'Yes, sign out everywhere' }).click();
  await expectToast(page, 'Signed out everywhere. Log in again to go on.');
  await page.waitForURL('**/login');
  expect(await page.evaluate("localStorage.getItem('TV_Shop_Token')")).toBeNull();

  // The other computer is signed out and sent to login, saying why.
  await otherTold;
  await other.waitForURL('**/login');
  expect(await other.evaluate("localStorage.getItem('TV_Shop_Token')")).toBeNull();

  // The password did not change: both sign in again with it.
  for (const p of [page, other]) {
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Login' }).click();
    await p.waitForURL((url) => !url.pathname.endsWith('/login'));
  }
  await other.getByText('No Order Available').waitFor();
});
