import { readFile } from 'node:fs/promises';
import type { ProductPageAnswer } from '@tv-shop/contracts';
import { expect, inject, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { PHONE, snap, useBrowser } from './support/browser';
import { bigPhoneJpeg, captionedPng } from './support/photos';
import { api, card, expectToast, fillListing, logInFromHome, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);
const MB = 1024 * 1024;

/** What a test reads of an <img> (the journeys are typed without the DOM's own types). */
interface Img {
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
  src: string;
}
/** An <img> once it has loaded: its intrinsic size and address. */
const loaded = async (image: Locator) => {
  const read = () =>
    image.evaluate((el) => {
      const img = el as unknown as Img;
      return { complete: img.complete, naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, src: img.src };
    });
  await expect.poll(async () => (await read()).complete && (await read()).naturalWidth > 0, { timeout: 15_000 }).toBe(true);
  const { naturalWidth, naturalHeight, src } = await read();
  return { naturalWidth, naturalHeight, src };
};
const galleryCount = (page: Page) => page.locator('.photo-gallery__count').textContent();

test('when a seller lists three photos, one a 7 MB phone photo, and reorders them, then cards show the thumbnail and the product page every photo', async () => {
  const productName = `LG OLED 55" photos ${Date.now()}`;
  const email = uniqueEmail('photo-seller');
  await api(baseUrl).signup('Farhana Photos', email, 'Seller');

  const front = await bigPhoneJpeg('front.jpg', 'Front, 4000×3000');
  expect(front.bytes).toBeGreaterThan(5 * MB);
  const side = await captionedPng('side.png', 900, 1200, '#7c3aed', 'Side');
  const back = await captionedPng('back.png', 1200, 900, '#ea580c', 'Back');

  const page = await newPage();
  // What the browser sends to the image host: every file under the server's 5 MB.
  const uploads: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/images')
      uploads.push(request.postDataBuffer()?.length ?? 0);
  });
  await logInFromHome(page, email, PASSWORD);
  await page.goto('/dashboard/add_product');
  await page.getByText('Up to 8 photos; any size — we shrink them before upload.').waitFor();
  await fillListing(page, {
    name: productName,
    location: 'Banani, Dhaka',
    resalePrice: '61000',
    originalPrice: '140000',
    phone: '01812345678',
    condition: 'Excellent',
    yearsOfUse: '2 years',
    category: 'LG',
    details: 'Perfect blacks, no burn-in, wall bracket included.',
  });

  // A file that is not an image is named and left out when chosen, also one named like an image;
  // the images beside it are added.
  await page.getByLabel('Photos', { exact: true }).setInputFiles([
    { name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 receipt') },
    { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture, only named like one') },
    { name: 'side.png', mimeType: 'image/png', buffer: await readFile(side) },
  ]);
  await page.getByRole('alert').filter({ hasText: 'Not a photo this browser can read, so not added: receipt.pdf, notes.png.' }).waitFor();
  await page.getByText('1 of 8 photos').waitFor();
  await page.locator('.photos-input').screenshot({ path: '/tmp/photos-refused.png' });
  await page.getByRole('button', { name: 'Remove photo 1' }).click();
  await page.getByText('0 of 8 photos').waitFor();

  await page.getByLabel('Photos', { exact: true }).setInputFiles([side, front.path, back]);
  // Choosing again clears the note about the file left out.
  // (once the chosen files' first bytes are read: a moment after the choice)
  await expect.poll(() => page.getByRole('alert').filter({ hasText: 'receipt.pdf' }).count()).toBe(0);
  const chosen = page.getByRole('list', { name: 'Chosen photos, in order' }).locator('img');
  await expect
    .poll(() => chosen.evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt'))))
    .toEqual([
      expect.stringMatching(/^Photo 1: .*side\.png$/),
      expect.stringMatching(/^Photo 2: .*front\.jpg$/),
      expect.stringMatching(/^Photo 3: .*back\.png$/),
    ]);
  await page.getByText('3 of 8 photos').waitFor();

  // By keyboard: the phone photo becomes the cover, and the focus follows it: onto the photo
  // itself, its left arrow being disabled (not onto its right arrow, where Enter would move it back).
  await page.getByRole('button', { name: 'Move photo 2 left' }).focus();
  await page.keyboard.press('Enter');
  await expect
    .poll(() => page.evaluate('document.activeElement?.tagName + " " + document.activeElement?.querySelector("img")?.alt'))
    .toMatch(/^LI Photo 1: .*front\.jpg$/);
  expect(await page.getByRole('button', { name: 'Move photo 1 left' }).isDisabled()).toBe(true);
  await page.keyboard.press('Enter');
  expect(await chosen.first().getAttribute('alt')).toMatch(/^Photo 1: .*front\.jpg$/);
  // By dragging: the back goes before the side.
  await page.locator('.photos-input__item').nth(2).dragTo(page.locator('.photos-input__item').nth(1));
  await expect
    .poll(() => chosen.evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt'))))
    .toEqual([
      expect.stringMatching(/^Photo 1: .*front\.jpg$/),
      expect.stringMatching(/^Photo 2: .*back\.png$/),
      expect.stringMatching(/^Photo 3: .*side\.png$/),
    ]);
  await page.locator('.photos-input').screenshot({ path: '/tmp/photos-form.png' });

  await page.getByRole('button', { name: 'Add Product' }).click();
  await expectToast(page, 'Product Add successfully');
  await page.waitForURL('**/dashboard/my_product');
  expect(
    await page
      .getByRole('alert')
      .filter({ hasText: /photo|image/i })
      .count(),
  ).toBe(0);
  expect(uploads).toHaveLength(3);
  for (const size of uploads) expect(size).toBeLessThan(5 * MB);

  // The card: the cover's thumbnail, not the photo.
  const product = (await api(baseUrl).allProducts()).find((p) => p.porduct_name === productName)!;
  expect(product.productImages).toHaveLength(3);
  expect(product.productImage).toBe(product.productImages[0]);
  expect(product.productThumbnails).toHaveLength(3);
  expect(product.productThumbnails.every((t) => t.endsWith('.webp'))).toBe(true);
  await page.goto('/all_products');
  const productCard = card(page, productName);
  await productCard.waitFor();
  await productCard.getByText('3 photos').waitFor();
  const thumbnail = await loaded(productCard.locator('.product-card__media img'));
  expect(new URL(thumbnail.src).pathname).toBe(product.productThumbnails[0]);
  expect(Math.max(thumbnail.naturalWidth, thumbnail.naturalHeight)).toBeLessThanOrEqual(720);
  await productCard.screenshot({ path: '/tmp/photos-card.png' });

  // The product page: every photo large and whole, in the seller's order; the cover sharp.
  await productCard.getByRole('link', { name: productName, exact: true }).click();
  await page.waitForURL(`**/products/${product._id}`);
  const gallery = page.getByRole('region', { name: `Photos of ${productName}` });
  await gallery.waitFor();
  expect(await galleryCount(page)).toBe('Photo 1 of 3');
  const slides = gallery.locator('.photo-gallery__slide img');
  expect(await slides.count()).toBe(3);
  const cover = await loaded(slides.nth(0));
  expect(cover.naturalWidth).toBeGreaterThanOrEqual(1600);
  expect([cover.naturalWidth, cover.naturalHeight]).toEqual([2560, 1920]);
  expect(
    await page.evaluate('[...document.querySelectorAll(".photo-gallery__slide img")].map((i) => getComputedStyle(i).objectFit)'),
  ).toEqual(['contain', 'contain', 'contain']);
  expect(await gallery.getByRole('button', { name: 'Previous photo' }).isDisabled()).toBe(true);

  await gallery.getByRole('button', { name: 'Next photo' }).click();
  await expect.poll(() => galleryCount(page)).toBe('Photo 2 of 3');
  expect(await loaded(slides.nth(1))).toMatchObject({ naturalWidth: 1200, naturalHeight: 900 });
  // The photo in view is the second: the strip has scrolled by one photo's width.
  await expect.poll(() => gallery.locator('.photo-gallery__track').evaluate((el) => Math.round(el.scrollLeft / el.clientWidth))).toBe(1);
  await gallery.getByRole('button', { name: 'Show photo 3 of 3' }).click();
  await expect.poll(() => galleryCount(page)).toBe('Photo 3 of 3');
  expect(await loaded(slides.nth(2))).toMatchObject({ naturalWidth: 900, naturalHeight: 1200 });
  expect(await gallery.getByRole('button', { name: 'Next photo' }).isDisabled()).toBe(true);
  // An upright photo is shown whole in the frame, not cropped to it.
  await expect.poll(() => gallery.locator('.photo-gallery__track').evaluate((el) => el.scrollLeft / el.clientWidth)).toBe(2);
  await gallery.screenshot({ path: '/tmp/photos-desktop-portrait.png' });
  // The arrow keys step too; the photo in view is the one link in the tab order, and opens full size.
  await gallery.getByRole('button', { name: 'Show photo 3 of 3' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => galleryCount(page)).toBe('Photo 2 of 3');
  const zoom = gallery.getByRole('link', { name: `Open photo 2 of 3 of ${productName} full size` });
  expect(await zoom.getAttribute('href')).toBe(product.productImages[1]);
  expect(await zoom.getAttribute('target')).toBe('_blank');
  expect(await zoom.getAttribute('tabindex')).toBe('0');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => galleryCount(page)).toBe('Photo 1 of 3');

  const answer = (await (await fetch(`${baseUrl}/api/product/${product._id}`)).json()) as ProductPageAnswer;
  expect(answer.product.productImages).toEqual(product.productImages);
  // The strip comes to rest on the first photo, whole, with none of the next one showing.
  const track = gallery.locator('.photo-gallery__track');
  await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(0);
  await page.screenshot({ path: '/tmp/photos-desktop.png', fullPage: true });
  await snap(page, '15-product-photos');

  // On a phone (touch, 390 px): a swipe brings the next photo.
  const phone = await page.context().browser()!.newContext({ baseURL: baseUrl, viewport: PHONE, hasTouch: true, isMobile: true });
  try {
    const phonePage = await phone.newPage();
    await phonePage.goto(`/products/${product._id}`);
    const phoneTrack = phonePage.locator('.photo-gallery__track');
    await loaded(phonePage.locator('.photo-gallery__slide img').first());
    const box = (await phoneTrack.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(PHONE.width);
    // A finger dragged from right to left across the photo, as touch events from the browser's input.
    const cdp = await phone.newCDPSession(phonePage);
    const y = Math.round(box.y + box.height / 2);
    const from = Math.round(box.x + box.width * 0.8);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
    for (let step = 1; step <= 10; step++)
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: from - step * Math.round(box.width * 0.06), y }],
      });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect.poll(() => galleryCount(phonePage)).toBe('Photo 2 of 3');
    await expect.poll(() => phoneTrack.evaluate((el) => el.scrollLeft / el.clientWidth)).toBe(1);
    await loaded(phonePage.locator('.photo-gallery__slide img').nth(1));
    await phonePage.screenshot({ path: '/tmp/photos-phone.png', fullPage: true });
  } finally {
    await phone.close();
  }

  // Booked, it shows in the buyer's My Orders by the cover's thumbnail, not the 2,560-pixel photo.
  const buyerEmail = uniqueEmail('buyer');
  const { token: buyerToken } = await api(baseUrl).signup('Photo Buyer', buyerEmail, 'Buyer');
  await api(baseUrl).book(buyerToken, product._id);
  const buyer = await newPage();
  await logInFromHome(buyer, buyerEmail, PASSWORD);
  await buyer.goto('/dashboard/my_order');
  const bookedRow = buyer.locator('tr').filter({ hasText: productName });
  const avatar = await loaded(bookedRow.locator('.row-avatar img'));
  expect(new URL(avatar.src).pathname).toBe(product.productThumbnails[0]);
  expect(Math.max(avatar.naturalWidth, avatar.naturalHeight)).toBeLessThanOrEqual(720);

  // A listing with one photo, as the spec's client sends it: the photo alone, no carousel.
  const single = await sellerWithProduct(baseUrl, 'Solo Seller', `Walton 32" one photo ${Date.now()}`);
  await page.goto(`/products/${single.productId}`);
  const solo = page.getByRole('link', { name: /^Open the photo of Walton 32" one photo \d+ full size$/ });
  await loaded(solo.locator('img'));
  expect(await page.getByRole('button', { name: 'Next photo' }).count()).toBe(0);
  expect(await page.locator('.photo-gallery__count').count()).toBe(0);
  expect(await page.evaluate('getComputedStyle(document.querySelector(".product-page__photo img")).objectFit')).toBe('contain');
  expect(await page.evaluate('getComputedStyle(document.querySelector(".product-page__photo")).borderTopLeftRadius')).toBe('12px');
});
