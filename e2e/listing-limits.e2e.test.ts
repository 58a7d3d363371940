import { expect, inject, test } from 'vitest';
import type { Product, Problem } from '@tv-shop/contracts';
import { snap, useBrowser } from './support/browser';
import { pngFile } from './support/png';
import { api, fillListing, logInFromHome, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

/** Either limit's sentence (ADR 0035); the shop runs with its defaults, so the hour's comes first. */
const LIMIT_SENTENCE =
  /^(You have added \d+ TVs? in the last hour, the most allowed\. You can add another in \d+ minutes?\.|You already have \d+ TVs? for sale, the most one seller may have\. Mark one sold or withdraw it before adding another\.)$/;

test('when a seller has added as many TVs as the limit allows, then Add Product says why the next one is refused, and nothing is listed', async () => {
  const client = api(baseUrl);
  const email = uniqueEmail('limited');
  const { token } = await client.signup('Lima Seller', email, 'Seller');
  const productImage = await client.uploadImage(token, [30, 64, 175]);
  const post = (i: number) =>
    fetch(`${baseUrl}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        porduct_name: `Walton 32" no. ${i}`,
        productImage,
        details: 'One of many.',
        location: 'Mirpur, Dhaka',
        resale_price: 9000,
        orginal_price: 21000,
        use_duration: '1 year',
        phone_number: '01700000000',
        product_condition: 'Good',
        category_id: 'samsung',
      }),
    });
  // Listed through the API until catalog refuses, whatever limits the shop was started with.
  let refused: Problem | null = null;
  for (let i = 0; i < 200 && !refused; i++) {
    const res = await post(i);
    if (res.status === 429) refused = (await res.json()) as Problem;
    else expect(res.status).toBe(201);
  }
  expect(refused?.detail).toMatch(LIMIT_SENTENCE);
  const mine = async () =>
    (
      (await (
        await fetch(`${baseUrl}/api/seller_products?email=${email}`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as Product[]
    ).length;
  const listed = await mine();

  const page = await newPage();
  await logInFromHome(page, email, PASSWORD);
  await page.goto('/dashboard/add_product');
  await fillListing(page, {
    name: 'Sony Bravia 43" one too many',
    location: 'Mirpur, Dhaka',
    resalePrice: '18000',
    originalPrice: '45000',
    phone: '01700000000',
    condition: 'Good',
    yearsOfUse: '1 year',
    category: 'Sony',
    details: 'Would be one listing too many.',
  });
  await page.getByLabel('Photos', { exact: true }).setInputFiles(await pngFile('limit', [180, 83, 9], 160));
  await page.getByText('1 of 8 photos').waitFor();
  await page.getByRole('button', { name: 'Add Product' }).click();

  const alert = page.getByRole('alert').filter({ hasText: /TVs? (in the last hour|for sale)/ });
  await alert.waitFor();
  expect((await alert.innerText()).trim()).toMatch(LIMIT_SENTENCE);
  expect(new URL(page.url()).pathname).toBe('/dashboard/add_product');
  await snap(page, '16-listing-limit');
  expect(await mine()).toBe(listed);
});
