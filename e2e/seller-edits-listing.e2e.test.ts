import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, inject, test } from 'vitest';
import { snap, useBrowser } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import { captionedPng } from './support/photos';
import {
  api,
  atNewPrice,
  choose,
  expectToast,
  fillCard,
  listTv,
  logInFromHome,
  loseAnswers,
  openMyOrders,
  PASSWORD,
  sellerWithProduct,
  uniqueEmail,
} from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);
const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

test('when a seller edits a listing from My Products, then the form holds it as it is, and the new price, words and brand show at once on a buyer’s open page', async () => {
  const productName = `Samsung 43" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Edit Screens', productName);

  // A visitor has the product page open while the seller edits it.
  const visitor = await newPage();
  await visitor.goto(`/products/${seller.productId}`);
  await visitor.getByRole('heading', { name: productName }).waitFor();
  await visitor.getByText('18,500 TK').first().waitFor();

  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  await page.goto('/dashboard/my_product');
  await page.getByRole('button', { name: `Edit ${productName}` }).click();
  await page.getByRole('heading', { name: 'Edit Listing' }).waitFor();
  // The form starts from the listing as it is: its fields, and its photo, the cover.
  expect(await page.getByLabel('Product Name').inputValue()).toBe(productName);
  expect(await page.getByLabel('Resale Price (TK)').inputValue()).toBe('18500');
  await page.getByRole('img', { name: 'Photo 1: listed photo 1' }).waitFor();
  await page.getByText('1 of 8 photos').waitFor();
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}edit-listing-desktop.png`, fullPage: true });

  // A price the server would refuse is said next to the field, and nothing is saved.
  await page.getByLabel('Resale Price (TK)').fill('cheap');
  await page.getByLabel('Location').click();
  await page.getByText('must be a number', { exact: false }).first().waitFor();

  const newName = `${productName} (price drop)`;
  await page.getByLabel('Product Name').fill(newName);
  await page.getByLabel('Resale Price (TK)').fill('15999');
  await page.getByLabel('Details').fill('Price dropped: bright panel, wall mount and remote included.');
  await choose(page, 'Category', 'Sony');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Listing updated');
  await page.waitForURL('**/dashboard/my_product');
  const row = page.locator('tr').filter({ hasText: newName });
  await row.getByText('15,999 TK').waitFor();

  // The visitor's page changed by push, without a reload.
  await visitor.getByRole('heading', { name: newName }).waitFor();
  await visitor.getByText('15,999 TK').first().waitFor();
  await visitor.getByText('wall mount and remote included', { exact: false }).waitFor();
  const listed = (await api(baseUrl).allProducts()).find((p) => p._id === seller.productId);
  expect(listed).toMatchObject({ porduct_name: newName, resale_price: 15999, category_id: 'sony', seller: 'Edit Screens' });
  expect(listed?.productThumbnails.length).toBe(1);

  // On the listing's own page its seller is offered the edit, not Book Now; on a sold one, My Products.
  await page.goto(`/products/${seller.productId}`);
  await page.getByRole('heading', { name: newName }).waitFor();
  expect(await page.getByRole('button', { name: 'Book Now' }).count()).toBe(0);
  await page.getByRole('link', { name: 'Edit your listing' }).click();
  await page.getByRole('heading', { name: 'Edit Listing' }).waitFor();
  await api(baseUrl).markSold(seller.token, seller.productId);
  await page.goto(`/products/${seller.productId}`);
  await page.getByRole('link', { name: /^Your listing: My Products \(/ }).click();
  await page.waitForURL('**/dashboard/my_product');
});

test('when a seller adds photos to a listing, makes a new one the cover and later removes the old one, then each photo keeps the thumbnail made for it and only new ones are uploaded', async () => {
  const productName = `LG 50" ${Date.now()}`;
  const email = uniqueEmail('seller');
  const { token } = await api(baseUrl).signup('Photo Screens', email, 'Seller');
  // Listed as the web app lists it: a photo with the thumbnail made for it.
  const old = await api(baseUrl).uploadPhoto(token, [120, 53, 15]);
  const { insertedId } = await listTv(baseUrl, token, productName, {
    productImage: old.url,
    productImages: [old.url],
    productThumbnails: [old.thumbnailUrl],
  });
  const productId = insertedId!;
  const page = await newPage();
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/images')) uploads.push(request.url());
  });
  await logInFromHome(page, email, PASSWORD);
  const read = async () => (await api(baseUrl).allProducts()).find((p) => p._id === productId)!;

  // Saved as it is, the form records nothing: no edit, and the buyers' bookings stand.
  await page.goto(`/dashboard/edit_product/${productId}`);
  await page.getByRole('img', { name: 'Photo 1: listed photo 1' }).waitFor();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Nothing to save: the listing is as it was');
  expect((await read()).edits).toBe(0);

  await page.goto(`/dashboard/edit_product/${productId}`);
  await page
    .getByLabel('Photos', { exact: true })
    .setInputFiles([
      await captionedPng('edit-front.png', 800, 600, '#1e3a8a', 'FRONT'),
      await captionedPng('edit-back.png', 800, 600, '#14532d', 'BACK'),
    ]);
  await page.getByText('3 of 8 photos').waitFor();
  // BACK, the third, goes to the front: it is the cover now.
  await page.getByRole('button', { name: 'Move photo 3 left' }).click();
  await page.getByRole('button', { name: 'Move photo 2 left' }).click();
  await page.getByRole('img', { name: /^Photo 1: .*edit-back\.png$/ }).waitFor();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Listing updated');
  expect(uploads).toHaveLength(2);
  const listed = await read();
  expect(listed.productImages).toHaveLength(3);
  expect(listed.productImage).toBe(listed.productImages[0]);
  expect(listed.productImages[1]).toBe(old.url);
  expect(listed.productThumbnails[1]).toBe(old.thumbnailUrl);
  for (const i of [0, 2]) {
    expect(listed.productThumbnails[i]).toMatch(/\.webp$/);
    expect(listed.productThumbnails[i]).not.toBe(listed.productImages[i]);
  }

  // Opened again, the form holds the three; the old photo removed, nothing uploaded, and the two
  // new ones keep their thumbnails (the server's, by photo: the form sends none).
  await page.goto(`/dashboard/edit_product/${productId}`);
  await page.getByText('3 of 8 photos').waitFor();
  await page.getByRole('button', { name: 'Remove photo 2' }).click();
  await page.getByText('2 of 8 photos').waitFor();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Listing updated');
  expect(uploads).toHaveLength(2);
  const after = await read();
  expect(after.productImages).toEqual([listed.productImages[0], listed.productImages[2]]);
  expect(after.productThumbnails).toEqual([listed.productThumbnails[0], listed.productThumbnails[2]]);
});

test('when a listing is sold, then My Products offers no Edit, and its edit page says why instead of a form', async () => {
  const productName = `Walton 32" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Sold Screens', productName);
  await api(baseUrl).markSold(seller.token, seller.productId);
  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  await page.goto('/dashboard/my_product');
  await page.locator('tr').filter({ hasText: productName }).getByRole('button', { name: 'Make Available' }).waitFor();
  expect(await page.getByRole('button', { name: `Edit ${productName}` }).count()).toBe(0);
  await page.goto(`/dashboard/edit_product/${seller.productId}`);
  await page.getByRole('alert').filter({ hasText: 'A sold listing cannot be edited' }).waitFor();
  expect(await page.getByRole('button', { name: 'Save Changes' }).count()).toBe(0);
});

test('when the listing is sold while its edit form is open far down the page, then the page goes back up to say why, the focus on its heading', async () => {
  const productName = `Vision 40" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Sold Meanwhile', productName);
  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  await page.goto(`/dashboard/edit_product/${seller.productId}`);
  await page.getByRole('button', { name: 'Save Changes' }).scrollIntoViewIfNeeded();
  expect(await page.evaluate('window.scrollY')).toBeGreaterThan(100);
  await api(baseUrl).markSold(seller.token, seller.productId);
  await page.getByRole('alert').filter({ hasText: 'This TV is sold' }).waitFor();
  await expect.poll(() => page.evaluate('window.scrollY')).toBe(0);
  expect(await page.evaluate('document.activeElement?.id')).toBe('edit-product-heading');
});

test('when a seller leaves the edit form with changes not saved, then they are asked first: Stay keeps what they typed, Leave drops it; a closed tab asks too', async () => {
  const productName = `Singer 32" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Leaving Screens', productName);
  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  await page.goto('/dashboard/my_product');
  // From My Products, in the app: Back from the edit page is the app's own move, not a new page.
  const openEdit = async () => {
    await page.getByRole('button', { name: `Edit ${productName}` }).click();
    await page.getByRole('heading', { name: 'Edit Listing' }).waitFor();
  };
  const onEditPage = () => new URL(page.url()).pathname === `/dashboard/edit_product/${seller.productId}`;
  await openEdit();
  const details = page.getByLabel('Details');
  const before = await details.inputValue();
  const asked: { type: string; message: string }[] = [];
  let answer: 'accept' | 'dismiss' = 'dismiss';
  page.on('dialog', (dialog) => {
    asked.push({ type: dialog.type(), message: dialog.message() });
    void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
  });
  const question = { type: 'confirm', message: 'Leave this page? Your changes are not saved.' };
  const myProducts = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Products' });
  // Unchanged, or changed and changed back, the form lets them go without a word: nothing is lost.
  await details.click();
  await page.keyboard.type(' x');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await myProducts.click();
  await page.getByRole('heading', { name: /My Products/ }).waitFor();
  expect(asked).toEqual([]);

  await openEdit();
  await details.click();
  await page.keyboard.type(' Wall mount included.');
  // Stay: the page and what was typed are kept.
  await myProducts.click();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toEqual(question);
  expect(onEditPage()).toBe(true);
  expect(await details.inputValue()).toBe(`${before} Wall mount included.`);
  // Back (a phone's back gesture) asks the same (history.back: the page is not left, so nothing to wait for).
  await page.evaluate('history.back()');
  await expect.poll(() => asked.length).toBe(2);
  expect(asked[1]).toEqual(question);
  // The address had moved back before the question (a Back has happened when a page hears of it);
  // refused, the router moves it forward again, a moment after the answer.
  await expect.poll(onEditPage).toBe(true);
  expect(await details.inputValue()).toBe(`${before} Wall mount included.`);
  // Leave: on to My Products, the listing as it was.
  answer = 'accept';
  await myProducts.click();
  await page.getByRole('heading', { name: /My Products/ }).waitFor();
  expect(asked).toEqual([question, question, question]);
  expect((await api(baseUrl).allProducts()).find((p) => p._id === seller.productId)?.details).toBe(before);

  // A tab closed with changes not saved: the browser's own prompt.
  await openEdit();
  await details.click();
  await page.keyboard.type(' Remote lost.');
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked.length).toBe(4);
  expect(asked[3]!.type).toBe('beforeunload');
});

test('when a seller edits a listing in two tabs, then the second tab says it was changed elsewhere, refuses to overwrite it, and saves on the listing as it is now', async () => {
  const productName = `Sony 49" ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Two Tabs', productName);
  const [first, second] = [await newPage(), await newPage()];
  for (const tab of [first, second]) {
    await logInFromHome(tab, seller.email, PASSWORD);
    await tab.goto(`/dashboard/edit_product/${seller.productId}`);
    await tab.getByRole('heading', { name: 'Edit Listing' }).waitFor();
    expect(await tab.getByLabel('Product Name').inputValue()).toBe(productName);
  }
  // The second tab starts a price change; meanwhile the first renames the TV and saves.
  await second.getByLabel('Resale Price (TK)').fill('14999');
  const renamed = `${productName} with soundbar`;
  await first.getByLabel('Product Name').fill(renamed);
  await first.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(first, 'Listing updated');

  // The second tab hears of it at once, and saving there would put the old name back: refused.
  const warning = second.getByRole('alert').filter({ hasText: 'This listing was changed elsewhere since you opened it.' });
  await warning.waitFor();
  await mkdir(SCREENSHOTS, { recursive: true });
  await second.screenshot({ path: `${SCREENSHOTS}17-edited-elsewhere-desktop.png`, fullPage: true });
  // Saving anyway sends nothing: the warning says why, once, and its button takes the focus.
  await second.getByRole('button', { name: 'Save Changes' }).click();
  await expect.poll(() => second.evaluate("document.activeElement?.textContent ?? ''")).toBe('Load it as it is now');
  expect(await second.getByRole('alert').count()).toBe(1);
  let listed = (await api(baseUrl).allProducts()).find((p) => p._id === seller.productId)!;
  expect(listed).toMatchObject({ porduct_name: renamed, resale_price: 18500, edits: 1 });

  // Loaded again, the form shows the new name; the price change is made on it and saved.
  await warning.getByRole('button', { name: 'Load it as it is now' }).click();
  expect(await second.getByLabel('Product Name').inputValue()).toBe(renamed);
  expect(await second.getByRole('alert').count()).toBe(0);
  await second.getByLabel('Resale Price (TK)').fill('14999');
  await second.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(second, 'Listing updated');
  listed = (await api(baseUrl).allProducts()).find((p) => p._id === seller.productId)!;
  expect(listed).toMatchObject({ porduct_name: renamed, resale_price: 14999, edits: 2 });
});

test('when the answers to a save are lost and the listing shows the change meanwhile, then the form knows the change for its own, and Save again lands it once', async () => {
  const productName = `LG 50" lost save ${Date.now()}`;
  // Of a brand and place the search journey does not look for (the journeys share one shop).
  const email = uniqueEmail('seller');
  const { token } = await api(baseUrl).signup('Lost Answer Screens', email, 'Seller');
  const listed = await listTv(baseUrl, token, productName, { category_id: 'lg', location: 'Zindabazar, Sylhet' });
  const seller = { email, productId: listed.insertedId ?? '' };
  const page = await newPage();
  await logInFromHome(page, seller.email, PASSWORD);
  await page.goto(`/dashboard/my_product`);
  await page.getByRole('button', { name: `Edit ${productName}` }).click();
  await page.getByRole('heading', { name: 'Edit Listing' }).waitFor();
  await page.getByLabel('Resale Price (TK)').fill('17250');

  // The server makes each try; the page never hears back from the first three.
  const keys = await loseAnswers(page, `**/api/product/${seller.productId}`, 'PUT', 3);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByRole('alert').filter({ hasText: 'The server could not be reached.' }).waitFor({ timeout: 15_000 });
  // The save was made: its push has reached the page, and the form does not take it for someone else's.
  await expect.poll(async () => (await api(baseUrl).allProducts()).find((p) => p._id === seller.productId)?.resale_price).toBe(17250);
  await page.waitForTimeout(1000);
  expect(await page.getByText('This listing was changed elsewhere since you opened it.').count()).toBe(0);

  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Listing updated');
  await page.waitForURL('**/dashboard/my_product');
  expect(new Set(keys).size).toBe(1);
  const saved = (await api(baseUrl).allProducts()).find((p) => p._id === seller.productId);
  expect(saved).toMatchObject({ resale_price: 17250, edits: 1 });
});

test('when a seller puts the photos of a booked TV in another order, then the buyer’s booking stays and they pay for it; a new price cancels another booking (ADR 0073)', async () => {
  const stamp = Date.now();
  const [reordered, repriced] = [`Sony Bravia 55" ${stamp}`, `Walton 43" ${stamp}`];
  const client = api(baseUrl);
  const sellerEmail = uniqueEmail('seller');
  const seller = await client.signup('Reorder Screens', sellerEmail, 'Seller');
  const front = await client.uploadPhoto(seller.token, [30, 64, 175]);
  const side = await client.uploadPhoto(seller.token, [180, 83, 9]);
  const photos = {
    productImage: front.url,
    productImages: [front.url, side.url],
    productThumbnails: [front.thumbnailUrl, side.thumbnailUrl],
  };
  const first = (await listTv(baseUrl, seller.token, reordered, photos)).insertedId!;
  const second = (await listTv(baseUrl, seller.token, repriced)).insertedId!;
  const buyerEmail = uniqueEmail('buyer');
  const buyer = await client.signup('Reorder Buyer', buyerEmail, 'Buyer');
  await client.book(buyer.token, first);
  await client.book(buyer.token, second);

  // The buyer has My Orders open, live.
  const orders = await newPage();
  await logInFromHome(orders, buyerEmail, PASSWORD);
  await openMyOrders(orders);
  const firstRow = orders.locator('tr').filter({ hasText: reordered });
  const secondRow = orders.locator('tr').filter({ hasText: repriced });
  await firstRow.getByRole('button', { name: 'Pay' }).waitFor();
  await secondRow.getByRole('button', { name: 'Pay' }).waitFor();
  await waitLive(orders);
  await markNoReload(orders);

  // The seller is told before saving that a change cancels the booking, but a new order does not.
  const page = await newPage();
  await logInFromHome(page, sellerEmail, PASSWORD);
  await page.goto(`/dashboard/edit_product/${first}`);
  await page.getByText('A buyer has booked this TV and not paid yet.').waitFor();
  await page.getByText('the same photos in another order do not', { exact: false }).waitFor();
  await page.getByRole('img', { name: 'Photo 2: listed photo 2' }).waitFor();
  await page.getByRole('button', { name: 'Move photo 2 left' }).click();
  await page.getByRole('img', { name: 'Photo 1: listed photo 2' }).waitFor();
  await snap(page, '12-edit-booked-listing-reorder');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Listing updated');
  const listed = (await client.allProducts()).find((p) => p._id === first)!;
  expect(listed.productImages).toEqual([side.url, front.url]);
  expect(listed.productThumbnails).toEqual([side.thumbnailUrl, front.thumbnailUrl]);

  // A new price on the other TV, after the reorder in the log: its booking is cancelled, so the
  // shop has acted on the reorder too, and left that booking as it was.
  const newPrice = await atNewPrice(baseUrl, second, 16000);
  // Watched for from before the write: its push comes before the write's answer, which waits for
  // every read model, and the toast may be gone by then on a busy machine.
  const told = expectToast(orders, `Your booking of ${repriced} was cancelled: the seller changed the listing.`);
  told.catch(() => undefined);
  await client.editProduct(seller.token, second, newPrice);
  await told;
  await secondRow.getByText('Cancelled', { exact: true }).waitFor();
  expect(await firstRow.getByText('Cancelled', { exact: true }).count()).toBe(0);
  expect(await stillSamePage(orders)).toBe(true);
  await snap(orders, '12-my-orders-after-reorder');

  // The buyer pays for the TV they booked: it is theirs.
  await firstRow.getByRole('button', { name: 'Pay' }).click();
  await orders.getByText('Payment With Stripe').waitFor();
  await (await fillCard(orders)).click();
  await orders.getByText('Payment success').waitFor();
  expect((await client.allProducts()).find((p) => p._id === first)?.sold).toBe(true);
});
