import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { waitLive } from './support/live';
import { api, expectToast, logInFromHome, openMyOrders, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

test('when a seller withdraws a listing, then it leaves My Products and the open product page, and the buyer who booked it sees the booking cancelled', async () => {
  const name = `Walton 32" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Sylhet Screens', name);
  const client = api(baseUrl);
  const buyerEmail = uniqueEmail('buyer');
  const buyer = await client.signup('Mitu Buyer', buyerEmail, 'Buyer');
  await client.book(buyer.token, seller.productId);
  const listMore = async (porduct_name: string, color: [number, number, number]) =>
    client.addProduct(seller.token, {
      porduct_name,
      productImage: await client.uploadImage(seller.token, color),
      details: 'Works, small scratch on the frame.',
      location: 'Sylhet',
      resale_price: 21000,
      orginal_price: 45000,
      use_duration: '3 years',
      phone_number: '01700000000',
      product_condition: 'Good',
      category_id: 'samsung',
    });
  // Two more TVs of the same seller: one a buyer reported (it stays until the admin decides), one plain.
  const reportedName = `Walton 43" ${Date.now()}`;
  const reported = await listMore(reportedName, [120, 40, 40]);
  const plainName = `Walton 24" ${Date.now()}`;
  await listMore(plainName, [40, 120, 40]);
  const report = await fetch(`${baseUrl}/api/product/add_reported/${reported.insertedId}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${buyer.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ reason: 'Not the TV in the photo' }),
  });
  expect(report.status).toBe(200);

  // The buyer has the TV's page open.
  const buyerPage = await newPage();
  await logInFromHome(buyerPage, buyerEmail, PASSWORD);
  await buyerPage.goto(`/products/${seller.productId}`);
  await buyerPage.getByRole('heading', { name }).waitFor();
  await waitLive(buyerPage);

  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Products' }).click();
  const row = page.locator('tr').filter({ hasText: name });
  await row.waitFor();
  const reportedRow = page.locator('tr').filter({ hasText: reportedName });
  await reportedRow.getByText('Reported: the admin reviews it').waitFor();
  expect(await reportedRow.getByRole('button', { name: /Withdraw/ }).count()).toBe(0);
  // Nor put in the home page's spotlight while the admin has not looked at it (ADR 0077).
  expect(await reportedRow.getByRole('button', { name: /^Advertise/ }).count()).toBe(0);
  expect(await row.getByRole('button', { name: `Advertise: ${name}` }).count()).toBe(1);

  // Withdraw asks first; Cancel changes nothing.
  await row.getByRole('button', { name: `Withdraw ${name}` }).click();
  const ask = page.locator('.ant-popover').filter({ hasText: `Withdraw ${name}?` });
  await ask.getByText('any unpaid bookings of it are cancelled').waitFor();
  // A screen reader hears the question as the focus lands on Cancel: an alert dialog named by it.
  const dialog = page.getByRole('alertdialog', { name: `Withdraw ${name}?` });
  await dialog.waitFor();
  expect(await dialog.getAttribute('aria-describedby')).toBeTruthy();
  expect(await page.evaluate("document.activeElement?.closest('[role=alertdialog]') !== null && document.activeElement.textContent")).toBe(
    'Cancel',
  );
  await snap(page, '2-my-products-withdraw-asked');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await ask.waitFor({ state: 'hidden' });
  expect(await row.count()).toBe(1);

  await row.getByRole('button', { name: `Withdraw ${name}` }).click();
  await ask.getByRole('button', { name: 'Withdraw' }).click();
  await expectToast(page, 'Listing withdrawn');
  await row.waitFor({ state: 'detached' });
  // The button that had the focus is gone: the focus is on the Withdraw that took its place.
  const active = () => page.evaluate("document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent");
  await expect.poll(active).toBe(`Withdraw ${plainName}`);
  await snap(page, '2-my-products-withdrawn');
  // From the keyboard: withdrawing the last one the seller can leaves the focus on the page's heading.
  await page.keyboard.press('Enter');
  await page
    .locator('.ant-popover')
    .filter({ hasText: `Withdraw ${plainName}?` })
    .getByRole('button', { name: 'Withdraw' })
    .click();
  await page.locator('tr').filter({ hasText: plainName }).waitFor({ state: 'detached' });
  await expect.poll(active).toBe('My Products');

  // The buyer's open page says so at once, then why (read again), and My Orders keeps their
  // booking, cancelled, with the reason.
  await buyerPage.getByRole('heading', { name: 'This TV is no longer for sale', level: 1 }).waitFor();
  await buyerPage.getByText(/^On \d{1,2} \w+ \d{4}, its seller took it off TV Shop\.$/).waitFor();
  expect(await buyerPage.title()).toBe('This TV is no longer for sale -- TV Shop');
  await snap(buyerPage, '2-product-page-withdrawn-while-open');
  await openMyOrders(buyerPage);
  const booking = buyerPage.locator('tr').filter({ hasText: name });
  await booking.getByText('Cancelled', { exact: true }).waitFor();
  await booking.getByText('listing removed: its seller took it off TV Shop').waitFor();
  expect(await booking.getByRole('button', { name: 'Pay' }).count()).toBe(0);
  await snap(buyerPage, '2-my-orders-listing-withdrawn');
  expect((await client.allProducts()).some((p) => p._id === seller.productId)).toBe(false);

  // Someone who follows a link to it later (a visitor, no session) is told the same, not "Page
  // Not Found", and is pointed at the TVs of its brand.
  const visitor = await newPage();
  await visitor.goto(`/products/${seller.productId}`);
  await visitor.getByRole('heading', { name: 'This TV is no longer for sale', level: 1 }).waitFor();
  await visitor.getByText(/, its seller took it off TV Shop\.$/).waitFor();
  expect(await visitor.getByRole('heading', { name: 'Page Not Found' }).count()).toBe(0);
  expect(await visitor.getByText(name).count()).toBe(0);
  await snap(visitor, '2-product-link-after-withdrawal');
  await visitor.getByRole('link', { name: 'More from Samsung' }).click();
  await visitor.waitForURL(/\/catagories\/samsung$/);
  await visitor.getByRole('heading', { level: 1 }).first().waitFor();
});
