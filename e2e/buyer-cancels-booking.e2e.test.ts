import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import { api, card, expectToast, logInFromHome, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a buyer cancels an unpaid booking in My Orders, then it stays there cancelled, the seller sees it live, and the buyer can book the TV again', async () => {
  const productName = `Walton 55" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Barishal Screens', productName);
  const email = uniqueEmail('buyer');
  const client = api(baseUrl);
  const { token } = await client.signup('Sadia Buyer', email, 'Buyer');
  await client.book(token, seller.productId);

  // The seller watches My Bookings.
  const sellerPage = await newPage();
  await logInFromHome(sellerPage, seller.email, PASSWORD);
  await sellerPage.goto('/dashboard/my_bookings');
  const sellerRow = sellerPage.locator('.seller-booking').filter({ hasText: productName });
  await sellerRow.getByText('Waiting for payment').waitFor();
  await waitLive(sellerPage);
  await markNoReload(sellerPage);

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }).click();
  const row = page.locator('tr').filter({ hasText: productName });
  await row.getByRole('button', { name: 'Pay' }).waitFor();
  await waitLive(page);
  await snap(page, '11-my-orders-pay-or-cancel');

  // Cancel asks first; "Keep it" changes nothing.
  await row.getByRole('button', { name: `Cancel booking of ${productName}` }).click();
  await page.getByText(`Cancel your booking of ${productName}?`).waitFor();
  await page.getByRole('button', { name: 'Keep it' }).click();
  expect(await row.getByRole('button', { name: 'Pay' }).count()).toBe(1);

  await row.getByRole('button', { name: `Cancel booking of ${productName}` }).click();
  // The seller's toast is watched for from the click: it may come and go while the buyer's page
  // is checked and photographed below.
  const sellerTold = expectToast(sellerPage, `Sadia Buyer cancelled their booking of ${productName}`);
  // Awaited below; should a step before it fail, its own failure is the one reported.
  sellerTold.catch(() => undefined);
  await page.getByRole('button', { name: 'Cancel booking', exact: true }).click();
  await expectToast(page, 'Booking cancelled');
  await row.getByText('Cancelled', { exact: true }).waitFor();
  await row.getByText('cancelled by the buyer').waitFor();
  expect(await row.getByRole('button', { name: 'Pay' }).count()).toBe(0);
  // Their own cancellation is no warning that the TV went.
  expect(await page.getByText('was cancelled: the TV is no longer available.').count()).toBe(0);
  // The focus lands on what the row says now, not on the page's top.
  await expect.poll(() => page.evaluate("document.activeElement?.textContent ?? ''")).toMatch(/Cancelled/);
  await snap(page, '11-my-orders-buyer-cancelled');

  // The seller's list turns Cancelled without a reload, and the seller is told.
  await sellerRow.getByText('cancelled by the buyer').waitFor({ timeout: 5_000 });
  await sellerTold;
  expect(await stillSamePage(sellerPage)).toBe(true);

  // The TV is still for sale: the buyer books it again from All Products.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Products' }).click();
  await card(page, productName).getByRole('button', { name: 'Book Now' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Phone Number').fill('01712345678');
  await dialog.getByLabel('Meeting Location').fill('Sadar Road, Barishal');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Booking successfully');
  await sellerRow.getByText('Waiting for payment').waitFor({ timeout: 2_000 });
  await page.goto('/dashboard/my_order');
  const rows = page.locator('tr').filter({ hasText: productName });
  await rows.getByRole('button', { name: 'Pay' }).waitFor();
  // The cancelled booking stays in the history beside the new one, with its own reason.
  expect(await rows.count()).toBe(2);
  await rows.filter({ hasText: 'cancelled by the buyer' }).waitFor();
  // And on the seller's list, live: the new booking above, the cancelled one kept.
  await sellerPage.getByText('cancelled by the buyer').first().waitFor();
  await sellerPage.getByText('Sadar Road, Barishal').waitFor();
});

test('when a buyer has cancelled their booking of a TV five times, then My Orders warns before the last, and the TV offers no Book Now after it', async () => {
  const productName = `Vision 32" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Rangpur Screens', productName);
  const email = uniqueEmail('buyer');
  const client = api(baseUrl);
  const { token } = await client.signup('Tanvir Buyer', email, 'Buyer');
  const cancel = async (bookingId: string) => {
    const res = await fetch(`${baseUrl}/api/bookings/${bookingId}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
  };
  // Four times by the API, the fifth in My Orders.
  for (let i = 0; i < 4; i++) await cancel((await client.book(token, seller.productId)).insertedId!);
  await client.book(token, seller.productId);

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.goto('/dashboard/my_order');
  const open = page
    .locator('tr')
    .filter({ hasText: productName })
    .filter({ has: page.getByRole('button', { name: 'Pay' }) });
  await open.getByRole('button', { name: `Cancel booking of ${productName}` }).click();
  await page.getByText('This is your 5th cancellation of this TV: you will not be able to book it again.').waitFor();
  await page.getByRole('button', { name: 'Cancel booking', exact: true }).click();
  await expectToast(page, 'Booking cancelled');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Products' }).click();
  const tv = card(page, productName);
  await tv.getByText('You cancelled your booking of this TV 5 times: it cannot be booked again.').waitFor();
  expect(await tv.getByRole('button', { name: 'Book Now' }).count()).toBe(0);
  // The server says the same to anyone who asks anyway.
  const again = await fetch(`${baseUrl}/api/bookings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ product_id: seller.productId, phone_number: '01711111111', meeting_location: 'Rangpur' }),
  });
  expect(again.status).toBe(409);
});
