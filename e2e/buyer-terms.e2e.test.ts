import type { Booking } from '@tv-shop/contracts';
import type { Locator } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { holdPushes, waitLive } from './support/live';
import { api, atNewPrice, card, expectToast, fillCard, logInFromHome, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

/** The buyer's bookings, as My Orders reads them. */
async function bookingsOf(email: string, token: string): Promise<Booking[]> {
  const res = await fetch(`${baseUrl}/api/bookings?email=${encodeURIComponent(email)}`, { headers: { Authorization: `Bearer ${token}` } });
  return (await res.json()) as Booking[];
}

/** Submit pressed, and refused: the dialog's alert says why. */
async function submitRefused(dialog: Locator, why: string): Promise<void> {
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await dialog.getByRole('alert').filter({ hasText: why }).waitFor();
}

/** A buyer on a seller's only listing's page, its booking dialog open and filled in, at 18,500 TK. */
async function dialogFilledIn(name: string, sellerName: string, location: string) {
  const seller = await sellerWithProduct(baseUrl, sellerName, name);
  const email = uniqueEmail('buyer');
  const { token } = await api(baseUrl).signup('Shirin Buyer', email, 'Buyer');
  const page = await newPage();
  const pushes = await holdPushes(page);
  await logInFromHome(page, email, PASSWORD);
  await page.goto(`/products/${seller.productId}`);
  await page.getByRole('heading', { name }).waitFor();
  await waitLive(page);
  await page.getByRole('button', { name: 'Book Now' }).click();
  const dialog = page.getByRole('dialog');
  expect(await dialog.getByLabel('Price').inputValue()).toBe('18,500 TK');
  await dialog.getByLabel('Phone Number').fill('01922222222');
  await dialog.getByLabel('Meeting Location').fill(location);
  return { seller, email, token, page, dialog, pushes };
}

test('when the seller changes the price while a buyer has the booking dialog open, then the dialog says so and shows the price now at once, what the buyer typed kept, and books at it', async () => {
  const { seller, email, token, page, dialog } = await dialogFilledIn(
    `Sony Bravia 55" ${Date.now()}`,
    'Sylhet Screens',
    'Zindabazar, Sylhet',
  );

  // The seller raises the price while the buyer is still filling the form: the dialog hears it
  // with the page behind it, before anything is sent.
  await api(baseUrl).editProduct(seller.token, seller.productId, await atNewPrice(baseUrl, seller.productId, 21000));
  await page.locator('.page').getByText('21,000 TK').first().waitFor();
  await dialog
    .getByRole('alert')
    .filter({ hasText: 'The seller changed this listing while you were booking it: it is now 21,000 TK.' })
    .waitFor();
  await expect.poll(() => dialog.getByLabel('Price').inputValue()).toBe('21,000 TK');
  expect(await dialog.getByLabel('Meeting Location').inputValue()).toBe('Zindabazar, Sylhet');
  await snap(page, '10-booking-price-changed-live');
  expect(await bookingsOf(email, token)).toEqual([]);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Booking successfully');
  expect((await bookingsOf(email, token)).map((b) => [b.status, b.price])).toEqual([['open', 21000]]);
});

test('when the seller changes the price and the push has not reached the dialog, then the booking is refused naming the price now, and the dialog shows the listing as it is now and books at it', async () => {
  const { seller, email, token, page, dialog, pushes } = await dialogFilledIn(
    `Philips 50" ${Date.now()}`,
    'Khulna Screens',
    'Shib Bari, Khulna',
  );
  // The page hears nothing of the change, so only the server knows.
  pushes.hold(true);
  await api(baseUrl).editProduct(seller.token, seller.productId, await atNewPrice(baseUrl, seller.productId, 21000));
  await submitRefused(dialog, 'The seller changed this listing since you opened it: it is now 21,000 TK');
  await expect.poll(() => dialog.getByLabel('Price').inputValue()).toBe('21,000 TK');
  expect(await dialog.getByLabel('Meeting Location').inputValue()).toBe('Shib Bari, Khulna');
  expect(await bookingsOf(email, token)).toEqual([]);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Booking successfully');
  expect((await bookingsOf(email, token)).map((b) => [b.status, b.price])).toEqual([['open', 21000]]);
});

test('when the buyer booked the TV in another tab while this booking dialog was open, then Submit is refused saying so and stays off', async () => {
  const { seller, email, token, dialog } = await dialogFilledIn(`Walton 43" ${Date.now()}`, 'Bogura Screens', 'Satmatha, Bogura');
  await api(baseUrl).book(token, seller.productId);
  await submitRefused(dialog, 'You have already booked this product; pay for it in My Orders');
  const submit = dialog.getByRole('button', { name: 'Submit' });
  // Sending it again would be refused the same way: nothing to press.
  await expect.poll(() => submit.isDisabled()).toBe(true);
  expect((await bookingsOf(email, token)).map((b) => b.status)).toEqual(['open']);
});

test('when the TV was sold before the dialog heard of it, then Submit is refused saying so and stays off until the seller makes it available again, which books it', async () => {
  const { seller, email, token, page, dialog, pushes } = await dialogFilledIn(
    `Vision 40" ${Date.now()}`,
    'Jessore Screens',
    'Palbari, Jessore',
  );
  pushes.hold(true);
  await api(baseUrl).markSold(seller.token, seller.productId);
  await submitRefused(dialog, 'This product has already been sold');
  const submit = dialog.getByRole('button', { name: 'Submit' });
  await expect.poll(() => submit.isDisabled()).toBe(true);
  // Marked sold by mistake: for sale again, the push takes the refusal back.
  pushes.hold(false);
  await api(baseUrl).markAvailable(seller.token, seller.productId);
  await expect.poll(() => submit.isDisabled()).toBe(false);
  expect(await dialog.getByRole('alert').count()).toBe(0);
  await submit.click();
  await expectToast(page, 'Booking successfully');
  expect((await bookingsOf(email, token)).map((b) => b.status)).toEqual(['open']);
});

test('when the seller changes more than the price while a buyer has the booking dialog open, then the dialog asks them to read the listing again and books nothing', async () => {
  const { seller, email, token, page, dialog } = await dialogFilledIn(
    `Samsung Crystal ${Date.now()}`,
    'Rangpur Screens',
    'Modern More, Rangpur',
  );

  // Worse condition, same price: the dialog does not show the condition, so it does not book it unseen.
  const fair = { ...(await atNewPrice(baseUrl, seller.productId, 18500)), product_condition: 'Fair' as const };
  await api(baseUrl).editProduct(seller.token, seller.productId, fair);
  await dialog
    .getByRole('alert')
    .filter({
      hasText: 'The seller changed this listing while you were booking it: close this and read the listing again before booking it.',
    })
    .waitFor();
  await expect.poll(() => dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
  expect(await bookingsOf(email, token)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByText('Fair', { exact: true }).first().waitFor();
});

/** A buyer on All Products, searching for one seller's only listing, its booking dialog open and filled in. */
async function dialogFilledInOnAllProducts(name: string, sellerName: string) {
  const seller = await sellerWithProduct(baseUrl, sellerName, name);
  const email = uniqueEmail('buyer');
  const { token } = await api(baseUrl).signup('Nasrin Buyer', email, 'Buyer');
  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.goto(`/all_products?q=${encodeURIComponent(name)}`);
  await card(page, name).waitFor();
  await waitLive(page);
  await card(page, name).getByRole('button', { name: 'Book Now' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Phone Number').fill('01955555555');
  await dialog.getByLabel('Meeting Location').fill('Station Road, Rajshahi');
  return { seller, email, token, page, dialog };
}

// A list of TVs for sale hears a sale or a removal as the TV leaving it (ADR 0071): the dialog
// reads the listing again to say why, instead of staying silent until Submit is refused.
test('when the seller marks the TV sold while a buyer books it from All Products, then the dialog says it was sold and books nothing', async () => {
  const name = `Hisense 43" ${Date.now()}`;
  const { seller, email, token, page, dialog } = await dialogFilledInOnAllProducts(name, 'Rajshahi Screens');
  await api(baseUrl).markSold(seller.token, seller.productId);
  await card(page, name).waitFor({ state: 'detached' });
  await dialog.getByRole('alert').filter({ hasText: 'This TV was sold while you were booking it.' }).waitFor();
  await expect.poll(() => dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
  expect(await bookingsOf(email, token)).toEqual([]);
});

test('when the seller takes the TV off while a buyer books it from All Products, then the dialog says who took it off and books nothing', async () => {
  const name = `TCL 55" ${Date.now()}`;
  const { seller, email, token, page, dialog } = await dialogFilledInOnAllProducts(name, 'Barishal Screens');
  await api(baseUrl).withdraw(seller.token, seller.productId);
  await card(page, name).waitFor({ state: 'detached' });
  await dialog.getByRole('alert').filter({ hasText: 'This TV is no longer for sale: its seller took it off TV Shop.' }).waitFor();
  await expect.poll(() => dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
  await snap(page, '10-booking-listing-withdrawn-live');
  expect(await bookingsOf(email, token)).toEqual([]);
  // What the buyer typed is still there, and Cancel closes it.
  expect(await dialog.getByLabel('Meeting Location').inputValue()).toBe('Station Road, Rajshahi');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
});

test('when the seller stops advertising a TV a buyer books from Home, then the dialog stays as it was and still hears its sale, and its sale taken back', async () => {
  const name = `LG OLED 48" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Cumilla Screens', name);
  const client = api(baseUrl);
  await client.advertise(seller.token, seller.productId);
  const email = uniqueEmail('buyer');
  const { token } = await client.signup('Tania Buyer', email, 'Buyer');
  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await card(page, name).waitFor();
  await waitLive(page);
  await card(page, name).getByRole('button', { name: 'Book Now' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Phone Number').fill('01966666666');

  // It leaves Home's list, still for sale: nothing to say, and Submit stays on.
  await client.advertise(seller.token, seller.productId, false);
  await card(page, name).waitFor({ state: 'detached' });
  await page.waitForTimeout(500);
  expect(await dialog.getByRole('alert').count()).toBe(0);
  expect(await dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(false);

  // Home no longer holds it, the dialog's own view of the TV does: its sale still reaches it.
  await client.markSold(seller.token, seller.productId);
  await dialog.getByRole('alert').filter({ hasText: 'This TV was sold while you were booking it.' }).waitFor();
  await expect.poll(() => dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);

  // Marked sold by mistake and for sale again, at the terms shown: the dialog books it.
  await client.markAvailable(seller.token, seller.productId);
  await expect.poll(() => dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(false);
  expect(await dialog.getByRole('alert').count()).toBe(0);
  await dialog.getByLabel('Meeting Location').fill('Kandirpar, Cumilla');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Booking successfully');
  expect((await bookingsOf(email, token)).map((b) => b.status)).toEqual(['open']);
});

test('when a booking cancelled for a new price is booked again while its payment page is open, then the page charges the new price', async () => {
  const name = `Walton 43" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Bogura TV Corner', name);
  const email = uniqueEmail('buyer');
  const client = api(baseUrl);
  const { token } = await client.signup('Rafiq Buyer', email, 'Buyer');
  const bookingId = (await client.book(token, seller.productId)).insertedId!;

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.goto(`/dashboard/payment/${bookingId}`);
  await page.getByText('Please pay').waitFor();
  await page.getByText('18,500 TK').first().waitFor();
  await waitLive(page);

  // A new price cancels the booking (ADR 0057); the page says so and offers the TV's page.
  await client.editProduct(seller.token, seller.productId, await atNewPrice(baseUrl, seller.productId, 16000));
  await page.locator('.card-error').filter({ hasText: 'The seller changed this listing after you booked it' }).waitFor();
  await page.getByRole('link', { name: `Go to ${name}` }).waitFor();
  // Nothing can be paid at the old price: no card form, until the TV is booked again.
  expect(await page.getByRole('button', { name: 'Pay', exact: true }).count()).toBe(0);

  // Booked again (in another tab, say) at the new price: the same booking, placed again.
  await client.book(token, seller.productId);
  await page.getByText('Please pay').waitFor();
  await page.getByText('16,000 TK').first().waitFor();
  await (await fillCard(page)).click();
  await page.getByText('Payment success').waitFor();
  // The focus is on what says the payment went through, not left on the page's start.
  await expect.poll(() => page.evaluate('document.activeElement?.className')).toContain('payment-success');
  await snap(page, '10-payment-at-new-price');
  const placings = await bookingsOf(email, token);
  expect(placings.find((b) => b.status === 'paid')).toMatchObject({ price: 16000, paid: true });
  // Nothing was charged at the old price: nothing was refunded.
  expect(placings.every((b) => !b.refunded)).toBe(true);
});
