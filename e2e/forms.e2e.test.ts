import type { Page } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { pngFile } from './support/png';
import { api, choose, expectToast, logIn, logInFromHome, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

/** The words antd shows under one field: an error, or a warning (which does not block the form). */
const fieldExplained = (kind: 'error' | 'warning') => (page: Page, label: string) =>
  page
    .locator('.ant-form-item')
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .locator(`.ant-form-item-explain-${kind}`);
const fieldError = fieldExplained('error');
const fieldWarning = fieldExplained('warning');

/** Every write the page sends to the API, by method and path. */
function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && request.method() !== 'GET') writes.push(`${request.method()} ${url.pathname}`);
  });
  return writes;
}

test('when a buyer types a card as digits only, then the number is grouped, "1230" becomes 12/30, mistakes are said in words, and it pays', async () => {
  const productName = `Sony Bravia 50" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Khulna Screens', productName);
  const email = uniqueEmail('card-buyer');
  const buyer = await api(baseUrl).signup('Rafi Buyer', email, 'Buyer');
  const booking = await api(baseUrl).book(buyer.token, seller.productId);

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  // A booking that is not theirs (or none at all) is said so, with the way to their own: no Retry to press in vain.
  await page.goto('/dashboard/payment/00000000-0000-4000-8000-000000000000');
  await page.getByText('There is no such booking of yours.').waitFor();
  await page.getByRole('link', { name: 'My Orders' }).first().waitFor();
  expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
  await page.goto(`/dashboard/payment/${booking.insertedId}`);
  await page.getByText('Payment With Stripe').waitFor();

  const number = page.getByLabel('Card number');
  const expiry = page.getByLabel('Expiry (MM/YY)');
  const cvc = page.getByLabel('CVC');
  // Phones show a number pad, and the browser may fill the card in.
  for (const [field, autocomplete] of [
    [number, 'cc-number'],
    [expiry, 'cc-exp'],
    [cvc, 'cc-csc'],
  ] as const) {
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    expect(await field.getAttribute('autocomplete')).toBe(autocomplete);
  }

  await number.click();
  await page.keyboard.type('4242424242424242');
  expect(await number.inputValue()).toBe('4242 4242 4242 4242');

  // A month that is no month is said in words, and the words go as soon as it is edited.
  await expiry.click();
  await page.keyboard.type('1330');
  expect(await expiry.inputValue()).toBe('13/30');
  await cvc.click();
  await fieldError(page, 'Expiry (MM/YY)').filter({ hasText: 'The month must be between 01 and 12' }).waitFor();
  await snap(page, '15-card-form-error');
  await expiry.fill('');
  await expect.poll(() => fieldError(page, 'Expiry (MM/YY)').count()).toBe(0);

  await expiry.click();
  await page.keyboard.type('1230');
  expect(await expiry.inputValue()).toBe('12/30');
  // Typed with spaces around the slash, it comes out the same.
  await expiry.fill('12 / 30');
  expect(await expiry.inputValue()).toBe('12/30');
  await cvc.click();
  await page.keyboard.type('123');
  await snap(page, '15-card-form-typed');

  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await expect.poll(() => pay.isEnabled()).toBe(true);
  await pay.click();
  await page.getByText('Payment success').waitFor();
  expect(await page.locator('.card-error').count()).toBe(0);
});

test('when a seller types a negative price and letters as the phone, then Add Product says so by the fields and sends nothing', async () => {
  const email = uniqueEmail('form-seller');
  await api(baseUrl).signup('Mitu Seller', email, 'Seller');
  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.goto('/dashboard/add_product');
  const writes = recordWrites(page);

  const productName = `Walton 43" form check ${Date.now()}`;
  await page.getByLabel('Product Name').fill(productName);
  // Spaces alone are no location: said by the field, not by the server after the trip.
  await page.getByLabel('Location').fill('   ');
  await page.getByLabel('Resale Price (TK)').fill('-5');
  await page.getByLabel('Original Price (TK)').fill('abc');
  await page.getByLabel('Phone Number').fill('abc');
  await choose(page, 'Condition', 'Good');
  await choose(page, 'Years of Use', '2 years');
  await choose(page, 'Category', 'Samsung');
  await page.getByLabel('Details').fill('Checked before it is sent.');
  await page.getByLabel('Photos', { exact: true }).setInputFiles(await pngFile('form-check', [15, 118, 110], 160));
  await page.getByText('1 of 8 photos').waitFor();
  await page.getByRole('button', { name: 'Add Product' }).click();

  // The server's own rules (AddProductBody), said before anything is sent.
  await fieldError(page, 'Location').filter({ hasText: 'Please enter the location' }).waitFor();
  await fieldError(page, 'Resale Price (TK)').filter({ hasText: 'Resale price must be at least 0.01 TK.' }).waitFor();
  await fieldError(page, 'Original Price (TK)')
    .filter({ hasText: 'Original price must be a number, like 25000, 38,000 or 1999.50.' })
    .waitFor();
  await fieldError(page, 'Phone Number')
    .filter({ hasText: 'Phone number must be made of digits, like 01712-345678 or +880 1712 345678.' })
    .waitFor();
  // The refusal shows where: the first field in error (Location) has the focus, in view.
  await expect.poll(() => page.evaluate("document.activeElement?.id ?? ''")).toBe(await page.getByLabel('Location').getAttribute('id'));
  // Nothing was turned into 0 behind the seller's back, and nothing was uploaded or posted.
  expect(await page.getByLabel('Resale Price (TK)').inputValue()).toBe('-5');
  expect(writes).toEqual([]);
  await snap(page, '15-add-product-field-errors');

  // Each complaint goes as its field is edited.
  await page.getByLabel('Location').fill('Mirpur, Dhaka');
  await expect.poll(() => fieldError(page, 'Location').count()).toBe(0);
  await page.getByLabel('Phone Number').fill('01712-345678');
  await expect.poll(() => fieldError(page, 'Phone Number').count()).toBe(0);
  expect(await fieldError(page, 'Resale Price (TK)').count()).toBe(1);
  // A price typed too long is a number all the same: the field says the highest it takes.
  await page.getByLabel('Original Price (TK)').fill('99999999999999999999');
  await page.getByLabel('Resale Price (TK)').fill('60000');
  await fieldError(page, 'Original Price (TK)').filter({ hasText: 'Original price must be at most 10,000,000 TK.' }).waitFor();
  // A resale price above the original is told as a warning by its field, not refused.
  await page.getByLabel('Original Price (TK)').fill('42000');
  await page.getByLabel('Details').click();
  await fieldWarning(page, 'Resale Price (TK)').filter({ hasText: 'This is more than the original price' }).waitFor();
  await expect.poll(() => fieldError(page, 'Original Price (TK)').count()).toBe(0);
  await snap(page, '15-add-product-resale-above-original');
  await page.getByLabel('Resale Price (TK)').fill('18000');
  await page.getByLabel('Details').click();
  await expect.poll(() => fieldWarning(page, 'Resale Price (TK)').count()).toBe(0);
  await page.getByRole('button', { name: 'Add Product' }).click();
  await expectToast(page, 'Product Add successfully');
  await page.getByRole('heading', { name: productName }).or(page.getByText(productName)).first().waitFor();
  expect(writes).toEqual(['POST /api/images', 'POST /api/products']);
});

test('when a login is refused, then the error goes as soon as the user types again; signup says the password rule in words', async () => {
  const email = uniqueEmail('retyping');
  await api(baseUrl).signup('Tanvir Buyer', email, 'Buyer');
  const page = await newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not-my-password');
  await page.getByRole('button', { name: 'Login' }).click();
  const refused = page.locator('form#login').getByRole('alert');
  await refused.waitFor();
  // The server's words, as a sentence.
  expect((await refused.innerText()).trim()).toBe('Wrong email or password');
  await snap(page, '15-login-refused');

  await page.getByLabel('Password').pressSequentially('!');
  await refused.waitFor({ state: 'detached' });
  await snap(page, '15-login-retyping');

  // Signing up with too short a password is said before anything is sent.
  const writes = recordWrites(page);
  await page.goto('/signup');
  await page.getByLabel('Name').fill('Short Password');
  await page.getByLabel('Email').fill(uniqueEmail('short'));
  await page.getByLabel('Password').fill('abc');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await fieldError(page, 'Password').filter({ hasText: 'Password must be at least 6 characters' }).waitFor();
  // So is too long a name, at the field, as the server would have said it.
  await page.getByLabel('Name').fill('N'.repeat(81));
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await fieldError(page, 'Name').filter({ hasText: 'Name must be at most 80 characters' }).waitFor();
  // A mistyped email is said once, by the form, not also by the browser's own bubble.
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await fieldError(page, 'Email').filter({ hasText: 'Please enter an email address, like name@example.com' }).waitFor();
  expect(await page.locator('form#signup').getAttribute('novalidate')).not.toBeNull();
  expect(writes).toEqual([]);
});

test("when another buyer signs in on the same tab, then a payment page the first left open says it is not theirs, with nothing of the first's", async () => {
  const productName = `Singer 40" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Sylhet Screens', productName);
  const first = uniqueEmail('first-buyer');
  const a = await api(baseUrl).signup('First Payer', first, 'Buyer');
  const booking = await api(baseUrl).book(a.token, seller.productId);
  const second = uniqueEmail('second-buyer');
  await api(baseUrl).signup('Second Payer', second, 'Buyer');

  const page = await newPage();
  await logInFromHome(page, first, PASSWORD);
  await page.goto(`/dashboard/payment/${booking.insertedId}`);
  await page.getByRole('heading', { name: 'Hello, First Payer' }).waitFor();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.waitForURL('**/login');
  await logIn(page, second, PASSWORD);
  // Back to the page the first buyer had open, inside the app: its store still holds their booking.
  await page.evaluate(
    `history.pushState({}, '', '/dashboard/payment/${booking.insertedId}'); dispatchEvent(new PopStateEvent('popstate'))`,
  );
  await page.getByText('There is no such booking of yours.').waitFor();
  expect(await page.getByText('First Payer').count()).toBe(0);
});
