import { expect, inject, test } from 'vitest';
import { useBrowser, PHONE, snap, snapAsIs } from './support/browser';
import { api, expectToast, logIn, logInFromHome, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a path does not exist, then the 404 page shows', async () => {
  const page = await newPage();
  await page.goto('/no/such/channel');
  await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
  expect(await page.title()).toBe('Page Not Found -- TV Shop');
  expect(await page.evaluate("getComputedStyle(document.querySelector('.not-found__tv')).animationName")).not.toBe('none');
  await snap(page, '6-not-found');
});

test('when a signed-out visitor opens a guarded page, then login sends them back to it', async () => {
  const email = uniqueEmail('buyer');
  await api(baseUrl).signup('Guarded Buyer', email, 'Buyer');
  const page = await newPage();

  await page.goto('/dashboard/my_order');
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  await snap(page, '6-guard-login');

  // Errors a user can act on are said in words: Google is off here, and a wrong password.
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.getByRole('alert').filter({ hasText: 'Google sign-in is not configured on this server.' }).waitFor();
  // Once: under the button, not again in a toast.
  expect(await page.getByText('Google sign-in is not configured on this server.').count()).toBe(1);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByRole('alert').filter({ hasNotText: 'Google' }).waitFor();
  await snap(page, '6-login-errors');

  await logIn(page, email, PASSWORD);
  await page.waitForURL('**/dashboard/my_order');
  await page.getByText('No Order Available').waitFor();
  expect(await page.title()).toBe('My Orders -- TV Shop');
  await snap(page, '6-my-orders-empty');

  // On a phone the dashboard menu opens from a drawer.
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: 'Dashboard Menu' }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('link', { name: 'Profile' }).waitFor();
  await snapAsIs(page, '6-dashboard-drawer-phone');
  await drawer.getByRole('link', { name: 'Profile' }).click();
  await page.getByText('Welcome, Buyer').waitFor();
  await drawer.waitFor({ state: 'hidden' });
  // Closing the drawer must not pull focus back from the new page's heading to the toggle.
  await page.waitForTimeout(500);
  expect(await page.evaluate('document.activeElement?.textContent')).toBe('Guarded Buyer');

  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.getByRole('status').filter({ hasText: 'Sign-out successful.' }).waitFor();
  await page.waitForURL('**/login');
  // A plain login page: whoever logs in next is not told they will come back to this account's page.
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  expect(await page.getByText('to open that page', { exact: false }).count()).toBe(0);
});

test('when a signed-in buyer opens a seller page, then they land on their profile and are told why', async () => {
  const email = uniqueEmail('buyer');
  await api(baseUrl).signup('Curious Buyer', email, 'Buyer');
  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);

  await page.goto('/dashboard/add_product');
  await expectToast(page, 'That page is for Sellers only.');
  await page.waitForURL('**/dashboard');
  await page.getByText('Welcome, Buyer').waitFor();
  expect(await page.getByRole('heading', { name: 'Login' }).count()).toBe(0);
  // The redirect is a route change: focus lands on the profile's heading for screen readers.
  await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Curious Buyer');
  // Where a buyer goes from here, on the profile.
  expect(await page.locator('.profile-card').getByRole('link', { name: 'Browse the TVs for sale' }).getAttribute('href')).toBe(
    '/all_products',
  );
  await snap(page, '6-wrong-role-profile');
});
