import { expect, inject, test } from 'vitest';
import { useBrowser } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import { api, sellerWithProduct } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a seller lists another TV or sells one, then their open public page shows it and its count at once, without a reload', async () => {
  const first = `Samsung 43" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Live Page Screens', first);
  const page = await newPage();
  await page.goto(`/products/${seller.productId}`);
  await page.getByRole('link', { name: 'See all listings by Live Page Screens' }).click();
  await page.waitForURL('**/sellers/**');
  await page.getByRole('heading', { name: 'Live Page Screens', level: 1 }).waitFor();
  await page.getByText(/· 1 available listing$/).waitFor();
  await waitLive(page);
  await markNoReload(page);

  // A second listing joins the page, at the top, and the count follows.
  const second = `Sony 50" ${Date.now()}`;
  const client = api(baseUrl);
  const listed = await client.addProduct(seller.token, {
    porduct_name: second,
    productImage: await client.uploadImage(seller.token, [20, 83, 45]),
    details: 'Listed while the page was open.',
    location: 'Uttara, Dhaka',
    resale_price: 24000,
    orginal_price: 61000,
    use_duration: '1 year',
    phone_number: '01700000000',
    product_condition: 'Excellent',
    category_id: 'sony',
  });
  await page.getByText(/· 2 available listings$/).waitFor();
  const titles = await page.locator('article.product-card h3').allTextContents();
  expect(titles).toEqual([second, first]);

  // Sold elsewhere, the first one leaves.
  await client.markSold(seller.token, seller.productId);
  await page.getByText(/· 1 available listing$/).waitFor();
  expect(await page.locator('article.product-card h3').allTextContents()).toEqual([second]);
  expect(listed.insertedId).toBeTruthy();
  expect(await stillSamePage(page)).toBe(true);
});
