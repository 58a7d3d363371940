import { expect, inject, test } from 'vitest';
import { useBrowser } from './support/browser';
import { api, expectToast, logInFromHome, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a seller marks a booked TV sold, then they are asked first, and the buyer is told the seller marked it sold, not that another buyer bought it', async () => {
  const productName = `Walton 40" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Comilla Screens', productName);
  const client = api(baseUrl);
  const buyerEmail = uniqueEmail('buyer');
  const buyer = await client.signup('Rafi Buyer', buyerEmail, 'Buyer');
  await client.book(buyer.token, seller.productId);

  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  await page.goto('/dashboard/my_product');
  const row = page.locator('tr').filter({ hasText: productName });
  // The list says the TV is booked and not paid for, not only My Bookings.
  await row.getByText('Booked, not paid yet').waitFor();
  await row.getByRole('button', { name: 'Make Sold' }).click();
  // The booking is not cancelled by a click alone: the seller is told what happens and confirms.
  const confirm = page.getByRole('alertdialog', { name: `Mark ${productName} sold?` });
  await confirm.getByText('A buyer booked it and has not paid: their booking is cancelled.', { exact: false }).waitFor();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'hidden' });
  expect((await client.allProducts()).find((p) => p._id === seller.productId)?.sold).toBe(false);

  await row.getByRole('button', { name: 'Make Sold' }).click();
  await confirm.getByRole('button', { name: 'Make Sold' }).click();
  await expectToast(page, 'Status Change Successfully');
  await row.getByRole('button', { name: 'Make Available' }).waitFor();
  // Off the market: nothing to advertise, so no Advertise (nor Edit) is offered on its row.
  expect(await row.getByRole('button', { name: `Advertise: ${productName}` }).count()).toBe(0);
  // Its booking was cancelled with the sale: made available again, it is not booked any more.
  await row.getByRole('button', { name: 'Make Available' }).click();
  await expectToast(page, 'Status Change Successfully');
  await row.getByRole('button', { name: 'Make Sold' }).waitFor();
  expect(await row.getByText('not paid yet').count()).toBe(0);

  const buyerPage = await newPage();
  await logInFromHome(buyerPage, buyerEmail, PASSWORD);
  await buyerPage.goto('/dashboard/my_order');
  await buyerPage.getByText('the seller marked it sold', { exact: false }).first().waitFor();
  expect(await buyerPage.getByText('sold to another buyer', { exact: false }).count()).toBe(0);
});
