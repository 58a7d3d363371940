import type { Page } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { api, card, expectToast, fillCard, logInFromHome, openMyOrders, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

/** Books through the modal: focus starts in Phone Number, and Enter submits as the button does. */
async function book(page: Page, productName: string, submitWith: 'enter' | 'click') {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Products' }).click();
  await card(page, productName).getByRole('button', { name: 'Book Now' }).click();
  const dialog = page.getByRole('dialog');
  const phoneId = await dialog.getByLabel('Phone Number').getAttribute('id');
  await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe(phoneId);
  await page.keyboard.type('01922222222');
  await dialog.getByLabel('Meeting Location').fill('Banani Road 11');
  if (submitWith === 'enter') await dialog.getByLabel('Meeting Location').press('Enter');
  else await dialog.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Booking successfully');
  await dialog.waitFor({ state: 'hidden' });
}

async function openPayment(page: Page, productName: string) {
  await openMyOrders(page);
  const row = page.locator('tr').filter({ hasText: productName });
  await row.getByRole('button', { name: 'Pay' }).click();
  await page.getByText('Payment With Stripe').waitFor();
  return row;
}

async function payWith(page: Page, cardNumber: string) {
  await (await fillCard(page, cardNumber)).click();
}

test('when a buyer pays with a good card, then the order is Paid; a declined card says so in red', async () => {
  const first = `LG OLED 48" ${Date.now()}`;
  const second = `Walton 32" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Dhaka TV House', first);
  await sellerWithProduct(baseUrl, 'Dhaka TV House', second);
  const email = uniqueEmail('buyer');
  await api(baseUrl).signup('Nadia Buyer', email, 'Buyer');

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);

  await book(page, first, 'enter');
  // Booked: the card no longer offers Book Now but the way to pay.
  const booked = card(page, first).getByRole('link', { name: 'Booked: pay in My Orders' });
  await booked.waitFor();
  expect(await card(page, first).getByRole('button', { name: 'Book Now' }).count()).toBe(0);
  await snap(page, '3-card-booked');
  await booked.click();
  await page.getByRole('heading', { name: 'My Orders' }).or(page.getByText('Hello,')).first().waitFor();
  expect(new URL(page.url()).pathname).toBe('/dashboard/my_order');
  const row = await openPayment(page, first);
  expect(await page.getByText('Hello, Nadia Buyer').count()).toBe(1);
  expect(await page.getByText('18,500 TK').count()).toBeGreaterThan(0);
  // The sandbox says it is one, and which cards to use.
  await page.getByText('Test mode: no card is charged.').waitFor();
  await snap(page, '3-payment-form');
  await payWith(page, '4242 4242 4242 4242');
  await page.getByText('Payment success').waitFor();
  const transactionId = await page.locator('.transaction-id').textContent();
  expect(transactionId).toBeTruthy();
  const paymentUrl = page.url();
  // What happens next: the seller has the buyer's phone and meeting place, and the buyer the seller's number.
  const next = page.locator('.after-paying');
  await next.getByText('Dhaka TV House sees your payment in their bookings, with your phone number (01922222222)').waitFor();
  expect(await next.textContent()).toContain('where you want to meet: Banani Road 11.');
  expect(await next.getByRole('link', { name: 'Call Dhaka TV House on 01700000000' }).getAttribute('href')).toBe('tel:01700000000');
  await snap(page, '3-payment-success');

  // The success says where to go next.
  await page.locator('.payment-success').getByRole('link', { name: 'Back to My Orders' }).click();
  await row.getByText('Paid', { exact: true }).waitFor();
  // The order says whom to call, one tap on a phone.
  expect(await row.locator('.seller-contact').textContent()).toBe('Seller: Dhaka TV House, 01700000000');
  expect(await row.locator('.seller-contact a').getAttribute('href')).toBe('tel:01700000000');
  await snap(page, '3-my-orders-paid');
  // Back on the paid booking's page later: paid, with the same transaction id and the way back.
  await page.goto(paymentUrl);
  await page.locator('.paid-label').waitFor();
  expect(await page.locator('.transaction-id').textContent()).toBe(transactionId);
  await page.getByRole('link', { name: 'Back to My Orders' }).click();
  await row.getByText('Paid', { exact: true }).waitFor();
  // The seller renames their shop: the open My Orders says whom to call by the new name, without a reload.
  await api(baseUrl).rename(seller.token, seller.email, 'Dhaka TV Centre');
  await expect.poll(() => row.locator('.seller-contact').textContent()).toBe('Seller: Dhaka TV Centre, 01700000000');

  await book(page, second, 'click');
  await openPayment(page, second);
  await payWith(page, '4000 0000 0000 0002');
  const error = page.locator('.card-error');
  await error.waitFor();
  expect(await error.textContent()).toBe('Your card was declined.');
  expect(await page.evaluate("getComputedStyle(document.querySelector('.card-error')).color")).toBe('rgb(207, 19, 34)');
  // The focus stayed on Pay (not dropped to the page's start while the payment was on its way).
  expect(await page.evaluate('document.activeElement?.textContent')).toBe('Pay');
  await snap(page, '3-payment-declined');
  // The message was about the card as it was: it goes as soon as the buyer edits the card.
  await page.getByLabel('Card number').fill('4242 4242 4242 424');
  await error.waitFor({ state: 'detached' });
});
