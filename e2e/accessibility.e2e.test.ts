import type { Page } from 'playwright-core';
import { beforeAll, expect, inject, test } from 'vitest';
import { headingProblems, seriousViolations } from './support/a11y';
import { useBrowser } from './support/browser';
import { ADMIN } from './support/shop';
import { settled, signInAs, stageShop, type Stage } from './support/stage';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);
const SIZES = [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
] as const;

let stage: Stage;
beforeAll(async () => {
  stage = await stageShop(baseUrl);
});

/** Every page's axe findings and heading problems, gathered so one run lists them all. */
async function auditPages(page: Page, paths: string[], extra?: (size: string) => Promise<string[]>): Promise<string[]> {
  const problems: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const path of paths) {
      await page.goto(path);
      await settled(page);
      const where = `${path} @${size.width}px`;
      problems.push(...(await seriousViolations(page, where)), ...(await headingProblems(page, where)));
    }
    if (extra) problems.push(...(await extra(size.name)));
  }
  return problems;
}

/** The pages of the side menu of whoever is signed in, read off the menu itself. */
async function sideMenuPaths(page: Page): Promise<string[]> {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/dashboard');
  const links = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link');
  await links.first().waitFor();
  return Promise.all((await links.all()).map(async (a) => new URL((await a.getAttribute('href')) ?? '', baseUrl).pathname));
}

/** On a phone the side menu opens in a drawer: that has to pass too. */
async function auditDrawer(page: Page, size: string): Promise<string[]> {
  if (size !== 'phone') return [];
  await page.goto('/dashboard');
  await settled(page);
  await page.getByRole('button', { name: 'Dashboard Menu' }).click();
  await page.getByRole('dialog').getByRole('link').first().waitFor();
  await page.waitForTimeout(400);
  return seriousViolations(page, '/dashboard drawer @390px');
}

function report(problems: string[]) {
  if (problems.length) console.log(`\n${problems.length} accessibility problems:\n${problems.join('\n')}`);
  expect(problems).toEqual([]);
}

test('a visitor: every public page, at laptop and phone width, has no serious or critical axe violation and headings in order', async () => {
  const page = await newPage();
  const paths = [
    '/',
    '/all_products',
    `/catagories/${stage.categoryId}`,
    `/products/${stage.productId}`,
    `/sellers/${stage.seller.user._id}`,
    '/blogs',
    '/login',
    '/signup',
    '/no-such-page',
  ];
  report(await auditPages(page, paths));
});

test('a buyer: the shop with Book Now and Add Report, the booking and report dialogs, every dashboard page and the payment page', async () => {
  const page = await newPage();
  await signInAs(page, stage.buyer.email);
  const menu = await sideMenuPaths(page);
  expect(menu).toContain('/dashboard/my_order');
  const dialogs = async (size: string): Promise<string[]> => {
    // A TV the buyer has not booked: on the one they booked, Book Now gives way to the way to pay.
    await page.goto(`/products/${stage.unbookedProductId}`);
    await settled(page);
    await page.getByRole('button', { name: 'Add Report' }).click();
    await page.getByRole('dialog').getByText('What is wrong with this listing?').waitFor();
    await page.waitForTimeout(400);
    const found = await seriousViolations(page, `report dialog @${size}`);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Book Now' }).click();
    await page.getByRole('dialog').getByLabel('Phone Number').waitFor();
    await page.waitForTimeout(400);
    found.push(...(await seriousViolations(page, `booking dialog @${size}`)));
    await page.keyboard.press('Escape');
    return [...found, ...(await auditDrawer(page, size))];
  };
  report(
    await auditPages(
      page,
      ['/all_products', `/products/${stage.productId}`, ...menu, `/dashboard/payment/${stage.openBookingId}`],
      dialogs,
    ),
  );
});

test('a seller: every page of the seller dashboard', async () => {
  const page = await newPage();
  await signInAs(page, stage.seller.email);
  const menu = await sideMenuPaths(page);
  expect(menu).toEqual(expect.arrayContaining(['/dashboard/add_product', '/dashboard/my_product', '/dashboard/my_bookings']));
  report(await auditPages(page, menu, (size) => auditDrawer(page, size)));
});

test('the admin: every page of the admin dashboard, the event log and a stream timeline', async () => {
  const page = await newPage();
  await signInAs(page, ADMIN.email, ADMIN.password);
  const menu = await sideMenuPaths(page);
  expect(menu).toEqual(
    expect.arrayContaining(['/dashboard/all_seller', '/dashboard/all_buyer', '/dashboard/reported_item', '/dashboard/events']),
  );
  report(await auditPages(page, [...menu, `/dashboard/events/stream/product-${stage.productId}`], (size) => auditDrawer(page, size)));
});
