import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import {
  api,
  atNewPrice,
  expectToast,
  fillCard,
  logInFromHome,
  openMyOrders,
  PASSWORD,
  sellerWithProduct,
  uniqueEmail,
} from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a booked TV is sold meanwhile, then My Orders and the open payment page say the booking was cancelled', async () => {
  const kept = `Vision 40" ${Date.now()}`;
  const lost = `Singer 43" ${Date.now()}`;
  const keptSeller = await sellerWithProduct(baseUrl, 'Rajshahi TV Mart', kept);
  const lostSeller = await sellerWithProduct(baseUrl, 'Khulna Screens', lost);
  const email = uniqueEmail('buyer');
  const client = api(baseUrl);
  const { token } = await client.signup('Tanvir Buyer', email, 'Buyer');
  await client.book(token, keptSeller.productId);
  await client.book(token, lostSeller.productId);

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await openMyOrders(page);
  const keptRow = page.locator('tr').filter({ hasText: kept });
  const lostRow = page.locator('tr').filter({ hasText: lost });
  await keptRow.waitFor();
  await lostRow.waitFor();
  await waitLive(page);
  await markNoReload(page);

  // The seller sells the TV elsewhere: the server cancels the unpaid booking (saying the seller
  // marked it sold, as no buyer here bought it); it stays in the
  // history, greyed, with the reason, and can no longer be paid.
  // Watched for from before the write: its push comes before the write's answer, which waits for
  // every read model, and the toast may be gone by then on a busy machine.
  const told = expectToast(page, `Your booking of ${lost} was cancelled: the TV is no longer available.`);
  told.catch(() => undefined);
  await client.markSold(lostSeller.token, lostSeller.productId);
  await told;
  await lostRow.getByText('Cancelled', { exact: true }).waitFor();
  await lostRow.getByText('the seller marked it sold').waitFor();
  expect(await lostRow.getByRole('button', { name: 'Pay' }).count()).toBe(0);
  expect(await lostRow.evaluate((tr) => tr.classList.contains('booking-row--cancelled'))).toBe(true);
  expect(await keptRow.getByRole('button', { name: 'Pay' }).count()).toBe(1);
  expect(await stillSamePage(page)).toBe(true);
  await snap(page, '9-my-orders-booking-cancelled');

  // The card goes through, but the TV is sold before the payment is recorded.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/payments', async (route) => {
    await held;
    await route.continue();
  });
  await keptRow.getByRole('button', { name: 'Pay' }).click();
  await page.getByText('Payment With Stripe').waitFor();
  const pay = await fillCard(page);
  const recording = page.waitForRequest('**/api/payments');
  await pay.click();
  await recording;

  await client.markSold(keptSeller.token, keptSeller.productId);
  const notice = page.locator('.card-error').filter({ hasText: 'This TV is no longer available; your booking was cancelled.' });
  await notice.waitFor();
  expect(await page.getByText('Hello, Tanvir Buyer').count()).toBe(1);
  expect(await page.getByText('Booking not found.').count()).toBe(0);

  // The payment is on its way: the form stays, Pay busy (named "loading Pay") and off, until its outcome.
  const submit = page.locator('form.card-form button[type="submit"]');
  await expect.poll(() => submit.isDisabled()).toBe(true);

  release();
  // The refusal says what became of the money, in place of the notice it would repeat: one red
  // line, where the focus goes as the card form gives way (nothing can be paid now).
  await page.locator('.card-error').filter({ hasText: 'your payment was refunded' }).waitFor();
  expect(await page.evaluate("[...document.querySelectorAll('.card-error')].map((p) => getComputedStyle(p).color)")).toEqual([
    'rgb(207, 19, 34)',
  ]);
  await expect.poll(() => submit.count()).toBe(0);
  expect(await pay.count()).toBe(0);
  await expect.poll(() => page.evaluate('document.activeElement?.className')).toBe('payment-card__messages');
  expect(await page.getByText('Payment success').count()).toBe(0);
  await snap(page, '9-payment-booking-cancelled-refunded');

  // My Orders says the money went back, beside why the booking was cancelled.
  await page.goto('/dashboard/my_order');
  await keptRow.getByText('Cancelled', { exact: true }).waitFor();
  await keptRow.getByText(/^[\d,]+ TK refunded to your card$/).waitFor();
  expect(await lostRow.getByText(/refunded/).count()).toBe(0);
  await snap(page, '9-my-orders-refunded');
});

test('when the seller changes a booked listing, then the buyer is told the TV is still for sale and can be booked again', async () => {
  const name = `Walton 50" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Comilla Screens', name);
  const email = uniqueEmail('buyer');
  const client = api(baseUrl);
  const { token } = await client.signup('Nadia Buyer', email, 'Buyer');
  await client.book(token, seller.productId);

  const page = await newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await logInFromHome(page, email, PASSWORD);
  await page.goto(`${baseUrl}/dashboard/my_order`);
  const row = page.locator('tr').filter({ hasText: name });
  await row.waitFor();
  await waitLive(page);
  await markNoReload(page);

  // A new price: the booking was for the listing as it was, so the shop cancels it (ADR 0057).
  const repriced = await atNewPrice(baseUrl, seller.productId, 16000);
  // Watched for from before the write: its push comes before the write's answer, which waits for
  // every read model, and the toast may be gone by then on a busy machine.
  const told = expectToast(page, 'was cancelled: the seller changed the listing. Book it again if you still want it.');
  told.catch(() => undefined);
  await client.editProduct(seller.token, seller.productId, repriced);
  await told;
  expect(await page.getByText('was cancelled: the TV is no longer available.').count()).toBe(0);
  await row.getByText('the seller changed the listing; book it again if you still want it').waitFor();
  expect(await stillSamePage(page)).toBe(true);
  await snap(page, '9-my-orders-listing-changed');
  // As the toast says: the TV is still for sale, at its new price, and this buyer can book it again.
  await page.goto(`/products/${seller.productId}`);
  await page.getByText('16,000 TK').first().waitFor();
  expect(await page.getByRole('button', { name: 'Book Now' }).isEnabled()).toBe(true);
});

test('when the shop cancels a booking while its buyer is elsewhere in the app, then they are told there, naming the TV', async () => {
  const name = `Toshiba Regza ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Comilla Screens', name);
  const email = uniqueEmail('buyer');
  const client = api(baseUrl);
  const { token } = await client.signup('Away Buyer', email, 'Buyer');
  await client.book(token, seller.productId);
  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blogs' }).click();
  await Promise.all([waitLive(page), markNoReload(page)]);

  const repriced = await atNewPrice(baseUrl, seller.productId, 16000);
  // Watched for from before the write: its push comes before the write's answer, which waits for
  // every read model, and the toast may be gone by then on a busy machine.
  const told = expectToast(
    page,
    `Your booking of ${name} was cancelled: the seller changed the listing. Book it again if you still want it.`,
  );
  told.catch(() => undefined);
  await client.editProduct(seller.token, seller.productId, repriced);
  await told;
  expect(await stillSamePage(page)).toBe(true);
  await snap(page, '9-buyer-told-elsewhere');
});
