import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { api, card, choose, expectToast, logIn, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a visitor clicks Book Now, then they sign up as a buyer and come back to the products', async () => {
  await sellerWithProduct(baseUrl, 'Rahim Electronics', 'Samsung 43" Crystal UHD');
  const page = await newPage();

  await page.goto('/');
  await page.getByText('Providing Services since 2018').first().waitFor();
  expect(await page.title()).toBe('Home -- TV Shop');
  await page.getByRole('link', { name: 'Samsung' }).first().waitFor();
  await snap(page, '1-home-visitor');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Products' }).click();
  await page.getByRole('heading', { name: 'All Our Resale Products' }).waitFor();
  expect(await page.title()).toBe('All Products -- TV Shop');
  // After a route change focus lands on the new page's heading, for screen readers.
  await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('All Our Resale Products');
  const product = card(page, 'Samsung 43" Crystal UHD');
  await expect.poll(() => product.getByText('18,500 TK').count()).toBe(1);
  await snap(page, '1-all-products-visitor');

  await product.getByRole('button', { name: 'Book Now' }).click();
  await page.waitForURL('**/login');
  await snap(page, '1-login');

  await page.getByRole('link', { name: 'Create new account' }).click();
  await page.waitForURL('**/signup');
  await page.getByLabel('Name').fill('Karim Buyer');
  await page.getByLabel('Email').fill(uniqueEmail('buyer'));
  await page.getByLabel('Password').fill(PASSWORD);
  await choose(page, 'Role', 'Buyer');
  await snap(page, '1-signup');
  await page.getByRole('button', { name: 'Sign Up' }).click();

  await expectToast(page, 'Succusfully SignUp');
  await page.waitForURL('**/all_products');
  await expect.poll(() => page.getByRole('button', { name: 'Log Out' }).count()).toBe(1);

  // Back where they were, the booking form of the TV they chose opens by itself, their name filled in.
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  expect(await dialog.getByText('Samsung 43" Crystal UHD').count()).toBeGreaterThan(0);
  expect(await dialog.getByLabel('Your Name').inputValue()).toBe('Karim Buyer');
  expect(await dialog.getByLabel('Price').inputValue()).toBe('18,500 TK');
  const phoneId = await dialog.getByLabel('Phone Number').getAttribute('id');
  await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe(phoneId);
  await snap(page, '1-booking-modal');

  // Closed, it stays closed: a reload does not open it again.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await card(page, 'Samsung 43" Crystal UHD').getByRole('button', { name: 'Book Now' }).waitFor();
  expect(await page.getByRole('dialog').count()).toBe(0);
});

test('when a buyer who already booked the TV signs in from its Book Now, then the card says Booked and no booking form opens', async () => {
  const productName = `TCL 50" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Comilla TV House', productName);
  const email = uniqueEmail('buyer');
  const client = api(baseUrl);
  const { token } = await client.signup('Rumana Buyer', email, 'Buyer');
  await client.book(token, seller.productId);

  const page = await newPage();
  // Their bookings come slowly: the page must wait for them before it decides.
  await page.route('**/api/bookings?email=*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.goto('/all_products');
  await card(page, productName).getByRole('button', { name: 'Book Now' }).click();
  await page.waitForURL('**/login');
  await logIn(page, email, PASSWORD);
  await page.waitForURL('**/all_products');
  await card(page, productName).getByText('Booked: pay in My Orders').waitFor();
  // Past the slow read, and a moment more: still no form.
  await page.waitForTimeout(500);
  expect(await page.getByRole('dialog').count()).toBe(0);
});
