import { TOKEN_STORAGE_KEY } from '@tv-shop/contracts';
import { expect, inject, test } from 'vitest';
import { useBrowser } from './support/browser';
import { api, expectToast, logIn, onEmptyMyOrdersLive, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a buyer logs out in one tab, then the other tabs are signed out too, and a sign-in there as someone else is followed', async () => {
  const buyer = uniqueEmail('buyer');
  const seller = uniqueEmail('seller');
  await api(baseUrl).signup('Mina Buyer', buyer, 'Buyer');
  await api(baseUrl).signup('Omar Seller', seller, 'Seller');

  const page = await newPage();
  await onEmptyMyOrdersLive(page, buyer, PASSWORD);
  // A second tab of the same browser, on All Products.
  const tab = await page.context().newPage();
  await tab.goto('/all_products');
  const mainNav = (p: typeof page) => p.getByRole('navigation', { name: 'Main' });
  await mainNav(tab).getByRole('button', { name: 'Log Out' }).waitFor();

  // Log Out in the first tab: the second is signed out at once, and says why.
  const token = await page.evaluate<string>(`localStorage.getItem(${JSON.stringify(TOKEN_STORAGE_KEY)})`);
  await mainNav(page).getByRole('button', { name: 'Log Out' }).click();
  await expectToast(tab, 'You signed out in another tab.');
  await mainNav(tab).getByRole('link', { name: 'Login' }).waitFor();
  expect(await mainNav(tab).getByRole('button', { name: 'Log Out' }).count()).toBe(0);
  // And on the server (ADR 0066): a copy of the token kept from before is refused.
  const profile = () =>
    fetch(`${baseUrl}/api/users?email=${encodeURIComponent(buyer)}`, { headers: { Authorization: `Bearer ${token}` } }).then(
      (r) => r.status,
    );
  await expect.poll(profile, { timeout: 15_000 }).toBe(401);

  // Someone else signs in in the first tab: the second follows, and shows who is signed in now.
  await page.goto('/login');
  await logIn(page, seller, PASSWORD);
  await mainNav(tab).getByRole('button', { name: 'Log Out' }).waitFor();
  await tab.goto('/dashboard');
  await tab.getByText('Omar Seller').first().waitFor();
  expect(await tab.getByText(buyer).count()).toBe(0);
});
