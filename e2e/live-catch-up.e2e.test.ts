import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { answerResyncOnce, markNoReload, recordCatchUps, stillSamePage, waitLive } from './support/live';
import { ADMIN, api, card, logInFromHome, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a TV is sold while the page is offline, then it shows Sold once back online, with no reload', async () => {
  const productName = `TCL 50" QLED ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Sylhet Screens', productName);
  const page = await newPage();
  const catchUps = recordCatchUps(page);

  // A visitor who has had no push at all: only the list read and the socket's start position.
  // Sold TVs shown too, so the sale shows as a badge rather than the card leaving.
  await page.goto('/all_products?sold=any');
  const productCard = card(page, productName);
  await productCard.getByText('Available', { exact: true }).waitFor();
  await waitLive(page);
  await markNoReload(page);

  await page.context().setOffline(true);
  await waitLive(page, 'disconnected');
  await api(baseUrl).markSold(seller.token, seller.productId);
  // Offline, nothing can tell the page; it still says Available.
  await page.waitForTimeout(1_500);
  expect(await productCard.getByText('Available', { exact: true }).count()).toBe(1);
  await snap(page, '7-offline-still-available');

  await page.context().setOffline(false);
  await productCard.getByText('Sold', { exact: true }).waitFor({ timeout: 10_000 });
  expect(await stillSamePage(page)).toBe(true);
  // The reconnect asked for what it missed, from a real position though no push had come, and
  // the answer held the sale (Socket.IO's own session recovery may replay it as well).
  await expect.poll(() => catchUps.answers.length).toBeGreaterThan(0);
  expect(catchUps.asked.every((since) => since > 0)).toBe(true);
  const answered = catchUps.answers.flatMap((answer) => answer.changes);
  expect(answered.some((change) => change.entity === 'product' && change.id === seller.productId && change.op === 'upsert')).toBe(true);
  await snap(page, '7-online-caught-up-sold');
});

test('when the server can no longer replay what a page missed, then the page reads its lists again, with no reload', async () => {
  const productName = `Hisense 43" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Barishal Electronics', productName);
  const page = await newPage();
  const resync = await answerResyncOnce(page);
  let listReads = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/products/search') listReads += 1;
  });

  await page.goto('/all_products?sold=any');
  const productCard = card(page, productName);
  await productCard.getByText('Available', { exact: true }).waitFor();
  await waitLive(page);
  await markNoReload(page);
  expect(listReads).toBe(1);

  await page.context().setOffline(true);
  await waitLive(page, 'disconnected');
  resync.arm();
  await api(baseUrl).markSold(seller.token, seller.productId);
  await page.context().setOffline(false);

  await expect.poll(() => listReads, { timeout: 10_000 }).toBe(2);
  await productCard.getByText('Sold', { exact: true }).waitFor();
  expect(await stillSamePage(page)).toBe(true);
  // The list stayed on screen while it was read again: no spinner in its place.
  expect(await page.getByRole('heading', { name: 'All Our Resale Products' }).count()).toBe(1);
  await snap(page, '7-resync-reloaded');
});

test("when the server can no longer replay what a seller's dashboard missed, then their own profile is read again: the verification made meanwhile shows, with no reload", async () => {
  const sellerName = `Rangpur Displays ${Date.now()}`;
  const email = uniqueEmail('seller');
  const { user: sellerUser } = await api(baseUrl).signup(sellerName, email, 'Seller');
  const page = await newPage();
  const resync = await answerResyncOnce(page);
  await logInFromHome(page, email, PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  const verification = page.locator('.profile-card__verification');
  await verification.getByText('Pending', { exact: true }).waitFor();
  await waitLive(page);
  await markNoReload(page);

  await page.context().setOffline(true);
  await waitLive(page, 'disconnected');
  resync.arm();
  const { token: adminToken } = await api(baseUrl).login(ADMIN.email, ADMIN.password);
  await api(baseUrl).verifySeller(adminToken, sellerUser._id);
  await page.context().setOffline(false);

  // Nothing was pushed or replayed to it: the answer said resync, with no changes.
  await verification.getByText('Verified', { exact: true }).waitFor({ timeout: 10_000 });
  expect(await stillSamePage(page)).toBe(true);
  await snap(page, '7-resync-profile-verified');
});
