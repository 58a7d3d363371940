import { randomBytes } from 'node:crypto';
import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { waitLive } from './support/live';
import { api, card, expectToast, logInFromHome, PASSWORD, sellerWithProduct } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a seller changes their name on their profile, then the dashboard, their listings and their buyers see the new one, live', async () => {
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const tv = `Sharp 40" Profile ${tag}`;
  const seller = await sellerWithProduct(baseUrl, `Mirpur Electronics ${tag}`, tv);

  // A visitor has the seller's TV open on All Products.
  const visitor = await newPage();
  await visitor.goto('/all_products');
  await card(visitor, tv).getByText(`Mirpur Electronics ${tag}`).waitFor();
  await waitLive(visitor);

  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  const section = page.getByRole('region', { name: 'Your name and photo' });
  const name = section.getByLabel('Name');
  await name.waitFor();
  expect(await name.inputValue()).toBe(`Mirpur Electronics ${tag}`);
  await section.getByText('Buyers see your name on your listings').waitFor();

  // Renamed elsewhere (another device) while the form is open and untouched: the form shows it.
  await api(baseUrl).rename(seller.token, seller.email, `Mirpur Electronics Ltd ${tag}`);
  await expect.poll(() => name.inputValue()).toBe(`Mirpur Electronics Ltd ${tag}`);

  // An empty name is said by the field and sends nothing.
  await name.fill('   ');
  await section.getByRole('button', { name: 'Save' }).click();
  await section.getByText('Please enter your name').waitFor();
  await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe(await name.getAttribute('id'));

  await name.fill(`Mirpur TV Centre ${tag}`);
  await section.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Profile updated.');
  await page.getByRole('heading', { name: `Mirpur TV Centre ${tag}`, level: 1 }).waitFor();
  await snap(page, '19-profile-renamed');

  // The visitor's open list follows without a reload; a reload of the dashboard keeps it.
  await card(visitor, tv).getByText(`Mirpur TV Centre ${tag}`).waitFor();
  await page.reload();
  await page.getByRole('heading', { name: `Mirpur TV Centre ${tag}`, level: 1 }).waitFor();
  expect(await section.getByLabel('Name').inputValue()).toBe(`Mirpur TV Centre ${tag}`);
  // Login and Sign Up opened while signed in say who is, and the way on.
  for (const path of ['/login', '/signup']) {
    await page.goto(path);
    await page
      .getByRole('status')
      .filter({ hasText: `You are signed in as Mirpur TV Centre ${tag}.` })
      .waitFor();
  }
  await page.getByRole('link', { name: 'your dashboard' }).click();
  await page.getByRole('heading', { name: `Mirpur TV Centre ${tag}`, level: 1 }).waitFor();
  const profile = await api(baseUrl).login(seller.email, PASSWORD);
  expect(profile.user.name).toBe(`Mirpur TV Centre ${tag}`);
});
