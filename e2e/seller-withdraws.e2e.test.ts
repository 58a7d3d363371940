import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { waitLive } from './support/live';
import { api, expectToast, logInFromHome, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a seller withdraws a listing, then it leaves My Products and the open product page, and the buyer who booked it sees the booking cancelled', async () => {
  const name = `Walton 32" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Sylhet Screens', name);
  const client = api(baseUrl);
  const buyerEmail = uniqueEmail('buyer');
  const buyer = await client.signup('Mitu Buyer', buyerEmail, 'Buyer');
  await client.book(buyer.token, seller.productId);

  // The buyer has the TV's page open.
  const buyerPage = await newPage();
  await logInFromHome(buyerPage, buyerEmail, PASSWORD);
  await buyerPage.goto(`/products/${seller.productId}`);
  await buyerPage.getByRole('heading', { name }).waitFor();
  await waitLive(buyerPage);

  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Products' }).click();
  const row = page.locator('tr').filter({ hasText: name });
  await row.waitFor();

  // Withdraw asks first; Cancel changes nothing.
  await row.getByRole('button', { name: `Withdraw ${name}` }).click();
  const ask = page.locator('.ant-popover').filter({ hasText: `Withdraw ${name}?` });
  await ask.getByText('a booking not yet paid for is cancelled').waitFor();
  await snap(page, '2-my-products-withdraw-asked');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await ask.waitFor({ state: 'hidden' });
  expect(await row.count()).toBe(1);

  await row.getByRole('button', { name: `Withdraw ${name}` }).click();
  await ask.getByRole('button', { name: 'Withdraw' }).click();
  await expectToast(page, 'Listing withdrawn');
  await row.waitFor({ state: 'detached' });
  await snap(page, '2-my-products-withdrawn');

  // The buyer's open page says so at once, and their booking is cancelled with the reason.
  await buyerPage.getByText('This listing has been removed.').waitFor();
  await expectToast(buyerPage, 'A booking was cancelled: the TV is no longer available.');
  await buyerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await buyerPage.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }).click();
  const booking = buyerPage.locator('tr').filter({ hasText: name });
  await booking.getByText('Cancelled', { exact: true }).waitFor();
  await booking.getByText('listing removed').waitFor();
  expect(await booking.getByRole('button', { name: 'Pay' }).count()).toBe(0);
  await snap(buyerPage, '2-my-orders-listing-withdrawn');
  expect((await client.allProducts()).some((p) => p._id === seller.productId)).toBe(false);
});
