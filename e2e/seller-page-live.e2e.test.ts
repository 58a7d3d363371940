import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import { ADMIN, api, listTv, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

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
  const listed = await listTv(baseUrl, seller.token, second, { category_id: 'sony', resale_price: 24000 }, [20, 83, 45]);
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

const tv = (baseUrl: string, token: string, name: string) =>
  listTv(baseUrl, token, name, { details: 'Listed while a page was open.', category_id: 'walton' }, [120, 40, 40]);

test('when a seller with no listing yet lists their first TV, then their open public page shows it at once', async () => {
  const { user, token } = await api(baseUrl).signup('First Timer Screens', uniqueEmail('seller'), 'Seller');
  const page = await newPage();
  await page.goto(`/sellers/${user._id}`);
  await page.getByRole('heading', { name: 'First Timer Screens', level: 1 }).waitFor();
  await page.getByText('No Items Available').waitFor();
  await page.getByText(/· 0 available listings$/).waitFor();
  await waitLive(page);
  await markNoReload(page);

  const name = `Walton 32" ${Date.now()}`;
  await tv(baseUrl, token, name);
  await page.getByText(/· 1 available listing$/).waitFor();
  expect(await page.locator('article.product-card h3').allTextContents()).toEqual([name]);
  expect(await page.getByText('No Items Available').count()).toBe(0);
  await snap(page, '20-seller-first-listing-live');
  expect(await stillSamePage(page)).toBe(true);
});

test("when a seller lists or sells another TV, then an open product page's count of their listings follows", async () => {
  const seller = await sellerWithProduct(baseUrl, 'Counted Screens', `LG 40" ${Date.now()}`);
  const page = await newPage();
  await page.goto(`/products/${seller.productId}`);
  const block = page.locator('section.seller-block');
  await block.getByText('1 available listing', { exact: true }).waitFor();
  await waitLive(page);
  await markNoReload(page);

  const second = await tv(baseUrl, seller.token, `Walton 43" ${Date.now()}`);
  await block.getByText('2 available listings', { exact: true }).waitFor();
  await api(baseUrl).markSold(seller.token, second.insertedId!);
  await block.getByText('1 available listing', { exact: true }).waitFor();
  expect(await stillSamePage(page)).toBe(true);
});

test("when the admin deletes a seller, then the seller's open page says they are gone and their product's page that it was removed", async () => {
  const seller = await sellerWithProduct(baseUrl, 'Leaving Screens', `Sony 55" ${Date.now()}`);
  await tv(baseUrl, seller.token, `Walton 24" ${Date.now()}`);
  const { user } = await api(baseUrl).login(seller.email, PASSWORD);
  const page = await newPage();
  await page.goto(`/sellers/${user._id}`);
  await page.getByText(/· 2 available listings$/).waitFor();
  const product = await newPage();
  await product.goto(`/products/${seller.productId}`);
  await product.locator('section.seller-block').getByText('2 available listings', { exact: true }).waitFor();
  for (const p of [page, product]) {
    await waitLive(p);
    await markNoReload(p);
  }

  const { token: adminToken } = await api(baseUrl).login(ADMIN.email, ADMIN.password);
  await api(baseUrl).deleteUser(adminToken, user._id);
  // Its listings go by push; the seller's page then reads the seller again and finds no one.
  await page.getByRole('heading', { name: 'Page Not Found', level: 1 }).waitFor();
  expect(await page.getByRole('heading', { name: 'Leaving Screens', level: 1 }).count()).toBe(0);
  // The product's page says its listing was removed, then why, and keeps saying so after it read
  // the page again for the seller's other listing (a 410 then, not a page that never was).
  await product.getByRole('heading', { name: 'This TV is no longer for sale', level: 1 }).waitFor();
  await product.getByText(/^Its seller is no longer on TV Shop\.$/).waitFor();
  await product.waitForTimeout(2_000);
  expect(await product.getByText(/^Its seller is no longer on TV Shop\.$/).count()).toBe(1);
  expect(await product.getByRole('heading', { name: 'Page Not Found' }).count()).toBe(0);
  await snap(product, '20-product-of-a-deleted-seller');
  for (const p of [page, product]) expect(await stillSamePage(p)).toBe(true);
});
