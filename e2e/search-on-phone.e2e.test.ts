import type { AddProductBody } from '@tv-shop/contracts';
import { randomBytes } from 'node:crypto';
import type { Response } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { DESKTOP, PHONE, snap, snapAsIs, useBrowser } from './support/browser';
import { api, card, logIn, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

const RANGE_SENTENCE = 'Min price must not be above max price';

/** A TV listed by the seller whose token is given: in Mirpur at 35,000 TK, with a blue photo. */
async function listTv(token: string, listing: Pick<AddProductBody, 'porduct_name' | 'details' | 'category_id'>) {
  const client = api(baseUrl);
  return client.addProduct(token, {
    ...listing,
    productImage: await client.uploadImage(token, [30, 64, 175]),
    location: 'Mirpur 10, Dhaka',
    resale_price: 35000,
    orginal_price: 60000,
    use_duration: '1 year',
    phone_number: '01700000000',
    product_condition: 'Good',
  });
}

test('when a buyer searches on a phone, then a TV shows on the first screen, the filters open on demand, and a wrong price range is fixed before any search', async () => {
  const client = api(baseUrl);
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const { token } = await client.signup(`Phone Test Seller ${tag}`, uniqueEmail('seller'), 'Seller');
  const name = `Walton 43" Phone Pick ${tag}`;
  await listTv(token, { porduct_name: name, details: 'Bright panel, remote included.', category_id: 'samsung' });

  const page = await newPage();
  await page.setViewportSize(PHONE);
  // Every search the page sends, and those the server refused.
  const searches: string[] = [];
  const refused: string[] = [];
  page.on('response', (response: Response) => {
    if (!response.url().includes('/api/products/search')) return;
    searches.push(response.url());
    if (!response.ok()) refused.push(`${response.status()} ${response.url()}`);
  });

  await page.goto('/all_products');
  await page.getByRole('heading', { name: 'All Our Resale Products' }).waitFor();
  // Newest first: this TV leads, and its photo and name are on the first screen, unscrolled.
  const first = card(page, name);
  await first.waitFor();
  expect(await page.evaluate('window.scrollY')).toBe(0);
  const title = await first.getByRole('heading', { name }).boundingBox();
  expect(title).not.toBeNull();
  expect(title!.y + title!.height).toBeLessThanOrEqual(PHONE.height);
  await snapAsIs(page, '17-search-on-phone-first-screen');

  // Only the search box and a Filters button; the rest opens on demand.
  const search = page.getByRole('search', { name: 'Search TVs' });
  const toggle = search.getByRole('button', { name: /^Filters/ });
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  const panelId = await toggle.getAttribute('aria-controls');
  expect(panelId).toBeTruthy();
  const panel = page.locator(`[id="${panelId}"]`);
  expect(await panel.isVisible()).toBe(false);
  expect(await search.getByLabel('Min price (TK)').isVisible()).toBe(false);
  expect(await search.getByLabel('Search', { exact: true }).isVisible()).toBe(true);

  await toggle.click();
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  const min = panel.getByLabel('Min price (TK)');
  const max = panel.getByLabel('Max price (TK)');
  await min.waitFor();
  for (const label of ['Brand', 'Condition', 'Location', 'Sort by'])
    expect(await panel.getByLabel(label, { exact: true }).isVisible()).toBe(true);
  expect(await panel.getByRole('switch', { name: 'Show sold' }).isVisible()).toBe(true);

  // A range the server would refuse: the filters say what to fix, and send no search for it.
  await min.fill('30000');
  await max.fill('10000');
  const message = search.getByRole('alert').filter({ hasText: RANGE_SENTENCE });
  await message.waitFor();
  // And what the list shows meanwhile: the prices are not searched by until fixed.
  expect(await message.textContent()).toBe(`${RANGE_SENTENCE}. The list still shows TVs at any price.`);
  expect(await min.getAttribute('aria-invalid')).toBe('true');
  expect(await max.getAttribute('aria-invalid')).toBe('true');
  expect(await max.getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
  await page.waitForTimeout(800);
  expect(new URL(page.url()).searchParams.get('maxPrice')).toBeNull();
  expect(searches.filter((url) => new URL(url).searchParams.get('maxPrice') === '10000')).toEqual([]);
  expect(refused).toEqual([]);
  expect(await page.getByText('Could not load the products.').count()).toBe(0);
  await page.getByRole('button', { name: 'Retry' }).waitFor({ state: 'detached' });
  expect(await toggle.textContent()).toBe('Filters (1)');
  // snap() takes the desktop picture at the page's own size, then the phone's.
  await page.setViewportSize(DESKTOP);
  await snap(page, '17-search-on-phone');
  await page.setViewportSize(PHONE);

  // Fixed: the message goes and the range is searched.
  await max.fill('40000');
  await page.waitForURL((url) => url.searchParams.get('minPrice') === '30000' && url.searchParams.get('maxPrice') === '40000');
  await message.waitFor({ state: 'detached' });
  expect(await max.getAttribute('aria-invalid')).toBeNull();
  await first.waitFor();
  await page.getByText(/^[\d,]+ TVs?$/).waitFor();
  const prices = (await page.locator('article.product-card .price-resale').allTextContents()).map((t) => Number(t.replace(/[^\d.]/g, '')));
  expect(prices.length).toBeGreaterThan(0);
  expect(prices.every((p) => p >= 30000 && p <= 40000)).toBe(true);
  expect(refused).toEqual([]);

  // Closing the filters keeps the search; the button counts what narrows it.
  await toggle.click();
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  expect(await min.isVisible()).toBe(false);
  await first.waitFor();
  await page.setViewportSize(DESKTOP);
  await snap(page, '17-search-on-phone-fixed');

  // On a wide screen every filter shows, with no Filters button.
  expect(await toggle.isVisible()).toBe(false);
  expect(await min.isVisible()).toBe(true);
  expect(await min.inputValue()).toBe('30000');

  // A hand-edited link with such a range sends no search either, and says what to fix without a Retry.
  await page.setViewportSize(PHONE);
  const before = searches.length;
  await page.goto('/all_products?minPrice=30000&maxPrice=10000');
  const toFix = page.getByRole('alert').filter({ hasText: `${RANGE_SENTENCE}.` });
  await toFix.getByText('Change the prices in the filters to see the TVs.').waitFor();
  expect(await toFix.getByRole('button', { name: 'Retry' }).count()).toBe(0);
  // The filters open by themselves on such a link, with the same message under the prices.
  await search.getByRole('alert').filter({ hasText: RANGE_SENTENCE }).waitFor();
  expect(await search.getByRole('button', { name: /^Filters/ }).getAttribute('aria-expanded')).toBe('true');
  await page.waitForTimeout(500);
  expect(searches.length).toBe(before);
  expect(refused).toEqual([]);
  await page.setViewportSize(DESKTOP);
  await snap(page, '17-search-link-to-fix');
});

test('when a seller names a TV with one long unbroken word, then its card and its page still fit a phone', async () => {
  const client = api(baseUrl);
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const { token } = await client.signup(`Long Name Seller ${tag}`, uniqueEmail('seller'), 'Seller');
  // A pasted model code: 100 characters without a space (a name takes at most 120), after
  // a word to search for.
  const name = `Sony ${tag} ${'Bravia-KD-55X80K-'.padEnd(100, 'W')}`;
  const { insertedId } = await listTv(token, { porduct_name: name, details: `Model ${'X'.repeat(200)}`, category_id: 'sony' });
  const page = await newPage();
  await page.setViewportSize(PHONE);
  const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

  await page.goto(`/products/${insertedId}`);
  await page.getByRole('heading', { name, level: 1 }).waitFor();
  expect(await overflow()).toBe(0);
  await snap(page, '16-product-long-name');
  await page.setViewportSize(PHONE); // snap leaves the page at the laptop's width

  await page.goto(`/all_products?q=${tag}`);
  await page.getByRole('heading', { name, level: 3 }).waitFor();
  expect(await overflow()).toBe(0);
  const card = page.locator('.product-card').filter({ hasText: tag }).first();
  const box = await card.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  // Nor is the name cut off at the card's edge (the card hides what overflows it): it wraps.
  for (const part of ['.product-card__title', '.product-card__details'])
    expect(await card.locator(part).evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
  await snap(page, '16-all-products-long-name');
});

test('on a touch screen, the controls are sized for a finger and the text boxes do not make the phone zoom in', async () => {
  const page = await newPage({ viewport: PHONE, hasTouch: true, isMobile: true });
  expect(await page.evaluate("matchMedia('(pointer: coarse)').matches")).toBe(true);
  const size = (selector: string) =>
    page.evaluate<{ height: number; font: string }>(
      `(() => { const el = document.querySelector(${JSON.stringify(selector)}); return { height: Math.round(el.getBoundingClientRect().height), font: getComputedStyle(el).fontSize }; })()`,
    );

  // Our own controls (the search and its Filters button) and antd's (the sign-in form).
  await page.goto('/all_products');
  const search = page.getByRole('search', { name: 'Search TVs' });
  await search.waitFor();
  expect(await size('[role="search"] .field-input')).toEqual({ height: 40, font: '16px' });
  expect(await search.getByRole('button', { name: /^Filters/ }).evaluate((el) => Math.round(el.getBoundingClientRect().height))).toBe(40);
  // The bar's links as well (they were 27-28 px tall).
  for (const name of ['Home', 'All Products', 'Dashboard', 'Blogs', 'Login'])
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name, exact: true })
        .evaluate((el) => Math.round(el.getBoundingClientRect().height)),
    ).toBe(40);
  // On the narrowest phone each filter takes the width, so "Any condition" at 16 px is not cut off.
  await page.setViewportSize({ width: 320, height: 700 });
  await search.getByRole('button', { name: /^Filters/ }).click();
  const condition = await page.getByLabel('Condition').boundingBox();
  const location = await page.getByLabel('Location').boundingBox();
  expect(condition!.width).toBeGreaterThan(250);
  expect(Math.round(condition!.width)).toBe(Math.round(location!.width));
  await snapAsIs(page, '17-touch-filters-320');
  // Sign Up, its photo's file input among the fields, fits the narrowest phone too.
  await page.goto('/signup');
  await page.getByLabel('Photo').waitFor();
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBe(320);
  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await page.getByLabel('Email').waitFor();
  expect(await size('form input')).toEqual({ height: 40, font: '16px' });
  expect(
    await page.getByRole('button', { name: 'Login', exact: true }).evaluate((el) => Math.round(el.getBoundingClientRect().height)),
  ).toBe(40);
  await snapAsIs(page, '17-touch-sign-in');
  // Signed in, the dashboard's drawer closes with a finger-sized button (it was 24 px).
  const email = uniqueEmail('touch');
  await api(baseUrl).signup('Touch Buyer', email, 'Buyer');
  await logIn(page, email, PASSWORD);
  await page.goto('/dashboard/my_order');
  await page.getByRole('button', { name: 'Dashboard Menu' }).click();
  const close = page.getByRole('dialog').getByRole('button', { name: 'Close' });
  expect(
    await close.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return [Math.round(r.width), Math.round(r.height)];
    }),
  ).toEqual([40, 40]);
  await close.click();
  await page.getByRole('dialog').waitFor({ state: 'hidden' });

  // With a mouse, the desktop's sizes stay as they were.
  const desk = await newPage();
  await desk.goto('/all_products');
  await desk.getByRole('search', { name: 'Search TVs' }).waitFor();
  expect(
    await desk
      .locator('[role="search"] .field-input')
      .first()
      .evaluate((el) => el.getBoundingClientRect().height),
  ).toBe(32);
});
