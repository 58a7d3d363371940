import type { Page } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { expectToast, sellerWithProduct } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

const reason = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

test('when a visitor presses Book Now, then the login page says why they are there, signup says it too, and a guarded page says its own', async () => {
  const productName = `Walton 32" sign-in ${Date.now()}`;
  const { productId } = await sellerWithProduct(baseUrl, 'Reason Electronics', productName);
  const page = await newPage();
  await page.goto(`/products/${productId}`);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  const bookText = 'Log in as a buyer to book this TV. You will come back to it afterwards.';
  await reason(page, bookText).waitFor();
  await snap(page, '16-login-reason-book');
  await page.getByRole('link', { name: 'Create new account' }).click();
  await page.getByRole('heading', { name: 'Sign Up' }).waitFor();
  await reason(page, 'Sign up as a buyer to book this TV. You will come back to it afterwards.').waitFor();

  // Opened directly, the login page has nothing to explain.
  await page.goto('/login');
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  expect(await page.locator('.auth-card__reason').count()).toBe(0);

  // Forgot Password says what can be done instead of looking like a link that does nothing.
  const forgot = page.getByRole('button', { name: 'Forgot Password' });
  expect(await forgot.getAttribute('aria-expanded')).toBe('false');
  await forgot.click();
  expect(await forgot.getAttribute('aria-expanded')).toBe('true');
  await page.getByText('a forgotten password cannot be reset here').waitFor();
  await snap(page, '16-login-forgot-password');
  await forgot.click();
  expect(await page.getByText('a forgotten password cannot be reset here').isVisible()).toBe(false);

  await page.goto('/dashboard');
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  await reason(page, 'Log in to open that page. You will come back to it afterwards.').waitFor();
});

test('when the stored session token has expired or cannot be read, then the app says the session has ended and drops it', async () => {
  const expired = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: 'gone', email: 'gone@tvshop.test', exp: 1_000_000 })}.c2ln`;
  for (const token of [expired, 'not-a-token']) {
    const page = await newPage();
    // Only on the first load: the app's own clearing must stick.
    await page.addInitScript(
      `if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1'); localStorage.setItem('TV_Shop_Token', ${JSON.stringify(token)}); }`,
    );
    await page.goto('/dashboard');
    await expectToast(page, 'Your session has ended. Please log in again.');
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    expect(await page.evaluate("localStorage.getItem('TV_Shop_Token')")).toBeNull();
  }
});
