import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { waitLive } from './support/live';
import { api, expectToast, logInFromHome, onEmptyMyOrdersLive, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a buyer changes their password on their profile, then they stay signed in there and in their other tab, and their other browser is signed out', async () => {
  const email = uniqueEmail('buyer');
  await api(baseUrl).signup('Tanvir Buyer', email, 'Buyer');

  // The same account open on a phone (another browser), live.
  const phone = await newPage();
  await onEmptyMyOrdersLive(phone, email, PASSWORD);

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  const section = page.getByRole('region', { name: 'Change password' });
  await section.getByLabel('Current password').waitFor();
  await waitLive(page);
  // A second tab of the same browser, on My Orders, live.
  const tab = await page.context().newPage();
  await tab.goto('/dashboard/my_order');
  await tab.getByText('No Order Available').waitFor();
  await waitLive(tab);

  // A wrong current password is said in words, next to the form, and changes nothing.
  await section.getByLabel('Current password').fill('not-my-password');
  await section.getByLabel('New password', { exact: true }).fill('a-better-passphrase');
  await section.getByLabel('Confirm new password').fill('a-better-passphrase');
  await section.getByRole('button', { name: 'Change password' }).click();
  await section.getByRole('alert').getByText('The current password is not right').waitFor();
  // The two new passwords must agree before anything is sent.
  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByLabel('Confirm new password').fill('a-better-passphrasX');
  await section.getByRole('button', { name: 'Change password' }).click();
  await section.getByText('The two passwords differ').waitFor();
  await section.getByLabel('Confirm new password').fill('a-better-passphrase');
  // The phone's toast is watched for from the change on: it may come before this page's answer.
  const phoneTold = expectToast(phone, 'Your session has ended. Please log in again.');
  phoneTold.catch(() => undefined);
  await section.getByRole('button', { name: 'Change password' }).click();
  await expectToast(page, 'Password changed.');
  await section.getByRole('status').getByText('Other sessions of this account were signed out.').waitFor();

  // The phone is signed out and sent to login, saying why (its toast is looked for before the
  // screenshots below, which take long enough on a busy machine for a toast to come and go).
  await phoneTold;
  await phone.waitForURL('**/login');
  await phone
    .getByRole('status')
    .getByText(/^Your session ended: the password of this account was changed/)
    .waitFor();
  await snap(page, '12-password-changed');
  expect(await phone.evaluate("localStorage.getItem('TV_Shop_Token')")).toBeNull();

  // The same browser's other tab took the new token the first one stored: still signed in, live.
  const token = await page.evaluate("localStorage.getItem('TV_Shop_Token')");
  expect(await tab.evaluate("localStorage.getItem('TV_Shop_Token')")).toBe(token);
  await waitLive(tab);
  expect(tab.url()).toMatch(/\/dashboard\/my_order$/);
  expect(await tab.getByText('Your session has ended').count()).toBe(0);
  await tab.reload();
  await tab.getByText('No Order Available').waitFor();
  expect(tab.url()).toMatch(/\/dashboard\/my_order$/);

  // Here the session goes on: pages load and the live connection comes back with the new token.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }).click();
  await page.getByText('No Order Available').waitFor();
  await waitLive(page);
  expect(page.url()).toMatch(/\/dashboard\/my_order$/);
  expect(await page.getByText('Your session has ended').count()).toBe(0);

  // Only the new password signs in now.
  expect(
    (
      await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      })
    ).status,
  ).toBe(401);
  await phone.getByLabel('Email').fill(email);
  await phone.getByLabel('Password').fill('a-better-passphrase');
  await phone.getByRole('button', { name: 'Login' }).click();
  await phone.waitForURL('**/dashboard/my_order');
});
