import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { ADMIN, card, expectToast, logInFromHome, sellerWithProduct } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when the admin verifies a seller, then a green check shows on their cards', async () => {
  const sellerName = `Verified Vision ${Date.now()}`;
  const productName = `Xiaomi Mi TV 4A ${Date.now()}`;
  await sellerWithProduct(baseUrl, sellerName, productName);
  const page = await newPage();
  await logInFromHome(page, ADMIN.email, ADMIN.password);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Products' }).click();
  const productCard = card(page, productName);
  await productCard.waitFor();
  expect(await productCard.getByRole('img', { name: 'verified seller' }).count()).toBe(0);

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

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'All Buyers' }).click();
  await page.getByRole('columnheader', { name: 'Email' }).or(page.getByText('No Buyer Available')).first().waitFor();
  await snap(page, '4-all-buyers');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Products' }).click();
  await productCard.getByRole('img', { name: 'verified seller' }).waitFor();
  await snap(page, '4-all-products-verified');
});
