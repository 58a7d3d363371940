import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import { ADMIN, api, card, expectToast, logInFromHome, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when the admin verifies a seller, then a green check shows live on their cards and on their product page, and their own dashboard says Verified', async () => {
  const sellerName = `Verified Vision ${Date.now()}`;
  const productName = `Xiaomi Mi TV 4A ${Date.now()}`;
  const { productId, email: sellerEmail } = await sellerWithProduct(baseUrl, sellerName, productName);

  // A shopper has All Products open the whole time; it must change without leaving the page.
  const shopper = await newPage();
  await shopper.goto('/all_products');
  const productCard = card(shopper, productName);
  await productCard.waitFor();
  expect(await productCard.getByRole('img', { name: 'verified seller' }).count()).toBe(0);
  await waitLive(shopper);
  await markNoReload(shopper);

  // Another has the product's own page open: its Seller block must change too.
  const reader = await newPage();
  await reader.goto(`/products/${productId}`);
  const sellerBlock = reader.getByRole('region', { name: 'Seller' });
  await sellerBlock.getByText(sellerName).first().waitFor();
  expect(await sellerBlock.getByRole('img', { name: 'verified seller' }).count()).toBe(0);
  await waitLive(reader);
  await markNoReload(reader);

  // The seller has their dashboard open: it says their account waits for the admin.
  const seller = await newPage();
  await logInFromHome(seller, sellerEmail, PASSWORD);
  await seller.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await seller.getByText('Welcome, Seller').waitFor();
  const verification = seller.locator('.profile-card__verification');
  await verification.getByText('Pending', { exact: true }).waitFor();
  await waitLive(seller);
  await markNoReload(seller);
  await snap(seller, '4-profile-seller-pending');

  const page = await newPage();
  await logInFromHome(page, ADMIN.email, ADMIN.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.getByText('Welcome, Admin').waitFor();
  await snap(page, '4-profile-admin');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'All Sellers' }).click();
  const row = page.locator('tr').filter({ hasText: sellerName });
  await row.getByText('Pending...').waitFor();
  await snap(page, '4-all-sellers-pending');
  await row.getByRole('button', { name: `Verify ${sellerName}` }).click();
  await expectToast(page, 'Status Change Successfully');
  await row.getByText('Approved').waitFor();
  await row.getByText('Verified', { exact: true }).waitFor();
  await snap(page, '4-all-sellers-verified');

  await productCard.getByRole('img', { name: 'verified seller' }).waitFor();
  expect(await stillSamePage(shopper)).toBe(true);
  expect(new URL(shopper.url()).pathname).toBe('/all_products');
  await snap(shopper, '4-all-products-verified');
  await sellerBlock.getByRole('img', { name: 'verified seller' }).waitFor();
  expect(await stillSamePage(reader)).toBe(true);
  await verification.getByText('Verified', { exact: true }).waitFor();
  expect(await verification.getByText('Pending', { exact: true }).count()).toBe(0);
  expect(await stillSamePage(seller)).toBe(true);
  await snap(seller, '4-profile-seller-verified');

  // At least one buyer is listed before the next signs up, so where the newcomer goes shows.
  await api(baseUrl).signup(`Earlier Buyer ${Date.now()}`, uniqueEmail('buyer'), 'Buyer');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'All Buyers' }).click();
  await page.getByRole('columnheader', { name: 'Email' }).waitFor();
  await snap(page, '4-all-buyers');

  // A buyer who signs up meanwhile shows at once, at the bottom: the list is oldest first, and a
  // reload would put them there too.
  await waitLive(page);
  await markNoReload(page);
  const buyerName = `Latest Buyer ${Date.now()}`;
  await api(baseUrl).signup(buyerName, uniqueEmail('buyer'), 'Buyer');
  const bodyRows = page.locator('tbody tr');
  await bodyRows.last().getByText(buyerName).waitFor();
  expect(await stillSamePage(page)).toBe(true);
  await page.reload();
  await bodyRows.last().getByText(buyerName).waitFor();
});
