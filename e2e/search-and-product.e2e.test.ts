import type { AddProductBody } from '@tv-shop/contracts';
import { randomBytes } from 'node:crypto';
import { expect, inject, test } from 'vitest';
import { launchBrowser, openPage, snap } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import { api, card, choose, expectToast, logIn, logInFromHome, PASSWORD, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');

test('when a buyer searches, filters and sorts, then the URL keeps the search, the product page books, and a sale drops out live', async () => {
  const client = api(baseUrl);
  // Other journeys list Samsungs in Dhaka too; the tag tells this journey's TVs apart.
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const sellerName = `Mirpur TV House ${tag}`;
  const sellerEmail = uniqueEmail('seller');
  const { token: sellerToken } = await client.signup(sellerName, sellerEmail, 'Seller');
  const list = async (
    body: Omit<AddProductBody, 'productImage' | 'orginal_price' | 'use_duration' | 'phone_number'>,
    color: [number, number, number],
  ) => {
    const productImage = await client.uploadImage(sellerToken, color);
    const answer = await client.addProduct(sellerToken, {
      ...body,
      productImage,
      orginal_price: body.resale_price * 2,
      use_duration: '2 years',
      phone_number: '01722222222',
    });
    return answer.insertedId ?? '';
  };
  const qled = { name: `Samsung 50" QLED ${tag}`, price: '25,000 TK' };
  const crystal = { name: `Samsung 32" Crystal ${tag}`, price: '14,000 TK' };
  const sony = `Sony Bravia 43" ${tag}`;
  const neo = `Samsung 65" Neo QLED ${tag}`;
  const qledId = await list(
    {
      porduct_name: qled.name,
      details: 'Quantum dot panel, bright, remote and stand included.',
      location: 'Mirpur 10, Dhaka',
      resale_price: 25000,
      product_condition: 'Excellent',
      category_id: 'samsung',
    },
    [30, 64, 175],
  );
  const crystalId = await list(
    {
      porduct_name: crystal.name,
      details: 'Small bedroom TV, no scratches.',
      location: 'Uttara, Dhaka',
      resale_price: 14000,
      product_condition: 'Good',
      category_id: 'samsung',
    },
    [190, 18, 60],
  );
  // Not Samsung, and not in Dhaka.
  await list(
    {
      porduct_name: sony,
      details: 'Android TV, works well.',
      location: 'Agrabad, Chattogram',
      resale_price: 22000,
      product_condition: 'Good',
      category_id: 'sony',
    },
    [17, 24, 39],
  );
  // A Samsung in Dhaka, but dearer than the range.
  await list(
    {
      porduct_name: neo,
      details: 'Flagship panel, like new.',
      location: 'Gulshan, Dhaka',
      resale_price: 48000,
      product_condition: 'Excellent',
      category_id: 'samsung',
    },
    [234, 88, 12],
  );

  const buyerEmail = uniqueEmail('buyer');
  await client.signup('Nadia Buyer', buyerEmail, 'Buyer');
  const browser = await launchBrowser();
  try {
    const page = await openPage(browser, baseUrl);
    await logInFromHome(page, buyerEmail, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Products' }).click();
    await page.getByRole('heading', { name: 'All Our Resale Products' }).waitFor();
    await card(page, neo).waitFor();

    // Typing waits for a pause, then the URL holds the search and the results follow it.
    await page.getByLabel('Search', { exact: true }).fill('samsung');
    await page.waitForURL((url) => url.searchParams.get('q') === 'samsung');
    // The page may still show the unfiltered list for a moment: wait for the search's own results.
    await expect.poll(() => card(page, sony).count()).toBe(0);
    await card(page, neo).waitFor();
    await page.getByLabel('Min price (TK)').fill('10000');
    await page.getByLabel('Max price (TK)').fill('30000');
    await page.getByLabel('Location').fill('Dhaka');
    await page.waitForURL((url) => url.searchParams.get('location') === 'Dhaka' && url.searchParams.get('maxPrice') === '30000');
    await choose(page, 'Sort by', 'Price: low to high');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'price_asc');
    // What can be bought is the default: sold TVs are left out unless "Show sold" is on.
    expect(await page.getByRole('switch', { name: 'Show sold' }).getAttribute('aria-checked')).toBe('false');

    const expectedQuery = {
      q: 'samsung',
      location: 'Dhaka',
      minPrice: '10000',
      maxPrice: '30000',
      sort: 'price_asc',
    };
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual(expectedQuery);
    const checkResults = async () => {
      // Until the last search's answer renders, the one before it may still be on screen.
      const settled = async () => {
        const shown = await page.locator('article.product-card h3').allTextContents();
        const [c, q] = [shown.indexOf(crystal.name), shown.indexOf(qled.name)];
        return !shown.includes(neo) && !shown.includes(sony) && c >= 0 && q > c;
      };
      await expect.poll(settled).toBe(true);
      await card(page, qled.name).waitFor();
      await card(page, crystal.name).waitFor();
      expect(await card(page, neo).count()).toBe(0);
      expect(await card(page, sony).count()).toBe(0);
      expect(await card(page, crystal.name).getByText(crystal.price).count()).toBe(1);
      // Cheapest first: every shown price is at least the one before it, the 14,000 TV before the 25,000 one.
      const titles = await page.locator('article.product-card h3').allTextContents();
      expect(titles.indexOf(crystal.name)).toBeLessThan(titles.indexOf(qled.name));
      const prices = (await page.locator('article.product-card .price-resale').allTextContents()).map((t) =>
        Number(t.replace(/[^\d.]/g, '')),
      );
      expect(prices.every((p) => p >= 10000 && p <= 30000)).toBe(true);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
      await expect.poll(() => page.getByText(/^\d+ TVs?$/).textContent()).toBe(`${titles.length} TVs`);
    };
    await checkResults();
    await snap(page, '14-search-filtered');

    // The URL is the search: a reload shows the same boxes and the same results.
    await page.reload();
    await card(page, qled.name).waitFor();
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('samsung');
    expect(await page.getByLabel('Location').inputValue()).toBe('Dhaka');
    expect(await page.getByLabel('Min price (TK)').inputValue()).toBe('10000');
    expect(await page.getByLabel('Max price (TK)').inputValue()).toBe('30000');
    expect(await page.getByRole('switch', { name: 'Show sold' }).getAttribute('aria-checked')).toBe('false');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual(expectedQuery);
    await checkResults();
    const searchUrl = page.url();

    // Back goes to the search before it was sorted by price; forward returns.
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('sort') === null && url.searchParams.get('q') === 'samsung');
    await page.goForward();
    await page.waitForURL(searchUrl);
    await card(page, qled.name).waitFor();
    const titlesAgain = await page.locator('article.product-card h3').allTextContents();
    expect(titlesAgain.indexOf(crystal.name)).toBeLessThan(titlesAgain.indexOf(qled.name));

    // A wrong min beside a cleared max: the min stays as last searched until fixed, the max goes.
    await page.getByLabel('Min price (TK)').fill('abc');
    await page.getByLabel('Max price (TK)').fill('');
    await page.waitForURL((url) => url.searchParams.get('maxPrice') === null);
    expect(new URL(page.url()).searchParams.get('minPrice')).toBe('10000');
    await page.getByText('Enter a price in TK, like 25000 or 38,000', { exact: false }).first().waitFor();
    await page.getByLabel('Min price (TK)').fill('10000');
    await page.getByLabel('Max price (TK)').fill('30000');
    await page.waitForURL((url) => url.searchParams.get('maxPrice') === '30000');
    await card(page, qled.name).waitFor();

    // The product page: its title, the photo whole, every field, the seller.
    await card(page, qled.name).getByRole('link', { name: qled.name }).click();
    await page.waitForURL(`**/products/${qledId}`);
    await page.getByRole('heading', { name: qled.name, level: 1 }).waitFor();
    expect(await page.title()).toBe(`${qled.name} -- TV Shop`);
    const product = page.locator('article.product-page');
    await product.getByText('Resale Price: 25,000 TK').waitFor();
    for (const text of ['Mirpur 10, Dhaka', 'Excellent', '2 years', '01722222222', 'Samsung', 'Available']) {
      expect(await product.getByText(text, { exact: true }).count()).toBeGreaterThan(0);
    }
    expect(await page.evaluate('getComputedStyle(document.querySelector(".product-page__photo img")).objectFit')).toBe('contain');
    expect(await product.getByRole('link', { name: `Open the photo of ${qled.name} full size` }).getAttribute('target')).toBe('_blank');
    const sellerBlock = page.getByRole('region', { name: 'Seller' });
    await sellerBlock.getByText(sellerName, { exact: true }).waitFor();
    await sellerBlock.getByText(/^Member since \d+ \w+ \d{4}$/).waitFor();
    await sellerBlock.getByText('4 available listings').waitFor();
    const sellerLink = sellerBlock.getByRole('link', { name: `See all listings by ${sellerName}` });
    expect(await sellerLink.getAttribute('href')).toMatch(/^\/sellers\/[^/]+$/);
    await snap(page, '14-product-page');

    await product.getByRole('button', { name: 'Book Now' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Phone Number').fill('01955555555');
    await dialog.getByLabel('Meeting Location').fill('Mirpur 10 roundabout');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Booking successfully');

    // The seller's page: their available listings as cards.
    await sellerLink.click();
    await page.waitForURL('**/sellers/**');
    await page.getByRole('heading', { name: sellerName, level: 1 }).waitFor();
    expect(await page.title()).toBe(`${sellerName} -- TV Shop`);
    for (const name of [qled.name, crystal.name, sony, neo]) await card(page, name).waitFor();
    await snap(page, '14-seller-page');

    // Back on the filtered list, the seller reprices the 14,000 TV, then sells it elsewhere: it leaves the list by push.
    await page.goto(searchUrl);
    await card(page, crystal.name).waitFor();
    await waitLive(page);
    await markNoReload(page);
    const countBefore = await page.getByText(/^\d+ TVs?$/).textContent();

    // First the seller raises the 14,000 TV to 27,000: it moves down past the 25,000 one to its
    // new place by price, live, and is counted as before.
    const listedCrystal = (await client.allProducts()).find((p) => p._id === crystalId)!;
    await client.editProduct(sellerToken, crystalId, {
      porduct_name: listedCrystal.porduct_name,
      productImage: listedCrystal.productImage,
      details: listedCrystal.details,
      location: listedCrystal.location,
      resale_price: 27000,
      orginal_price: listedCrystal.orginal_price,
      use_duration: '2 years',
      phone_number: listedCrystal.phone_number,
      product_condition: listedCrystal.product_condition,
      category_id: listedCrystal.category_id,
    });
    await card(page, crystal.name).getByText('27,000 TK').waitFor();
    const titlesRepriced = await page.locator('article.product-card h3').allTextContents();
    expect(titlesRepriced.indexOf(crystal.name)).toBeGreaterThan(titlesRepriced.indexOf(qled.name));
    const pricesRepriced = (await page.locator('article.product-card .price-resale').allTextContents()).map((t) =>
      Number(t.replace(/[^\d.]/g, '')),
    );
    expect(pricesRepriced).toEqual([...pricesRepriced].sort((a, b) => a - b));
    expect(await page.getByText(/^\d+ TVs?$/).textContent()).toBe(countBefore);
    expect(await stillSamePage(page)).toBe(true);

    const sellerPage = await openPage(browser, baseUrl);
    await sellerPage.goto('/login');
    await logIn(sellerPage, sellerEmail, PASSWORD);
    await sellerPage.goto('/dashboard/my_product');
    const row = sellerPage.locator('tr').filter({ hasText: crystal.name });
    await row.getByRole('button', { name: 'Make Sold' }).click();
    await expectToast(sellerPage, 'Status Change Successfully');

    await card(page, crystal.name).waitFor({ state: 'detached' });
    await card(page, qled.name).waitFor();
    expect(await stillSamePage(page)).toBe(true);
    const n = Number(countBefore?.replace(/\D/g, ''));
    await expect.poll(() => page.getByText(/^\d+ TVs?$/).textContent()).toBe(`${n - 1} ${n - 1 === 1 ? 'TV' : 'TVs'}`);
    await snap(page, '14-search-after-sale');

    // New listings reach the page by push: one over the price range stays out; one that matches
    // joins the results in its place by price (the one out of range came first, so it is settled).
    const dear = `Samsung 75" Too Dear ${tag}`;
    await list(
      {
        porduct_name: dear,
        details: 'Over the range.',
        location: 'Banani, Dhaka',
        resale_price: 90000,
        product_condition: 'Good',
        category_id: 'samsung',
      },
      [150, 12, 90],
    );
    const fresh = `Samsung 40" Just Listed ${tag}`;
    await list(
      {
        porduct_name: fresh,
        details: 'Listed a moment ago.',
        location: 'Banani, Dhaka',
        resale_price: 20000,
        product_condition: 'Good',
        category_id: 'samsung',
      },
      [12, 150, 90],
    );
    await card(page, fresh).waitFor();
    const titlesLive = await page.locator('article.product-card h3').allTextContents();
    expect(titlesLive.indexOf(fresh)).toBeLessThan(titlesLive.indexOf(qled.name));
    expect(await card(page, dear).count()).toBe(0);
    expect(await stillSamePage(page)).toBe(true);
    await expect.poll(() => page.getByText(/^\d+ TVs?$/).textContent()).toBe(`${n} ${n === 1 ? 'TV' : 'TVs'}`);

    // A category page searches within its brand: the tag finds this seller's Sony only.
    await page.goto(`/catagories/sony?q=${tag}`);
    await page.getByRole('heading', { name: 'Sony', level: 1 }).waitFor();
    await card(page, sony).waitFor();
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe(tag);
    expect(await page.getByLabel('Brand').count()).toBe(0);
    expect(await card(page, qled.name).count()).toBe(0);
    await page.getByText('1 TV', { exact: true }).waitFor();
    await snap(page, '14-category-search');

    // Load more, pages of two (20,000, 22,000 | 25,000, 48,000 | 90,000 TK): the focus goes to the first TV it brought, where reading goes on,
    // also when the button goes with the last page.
    await page.route('**/api/products/search?**', (route) => route.continue({ url: `${route.request().url()}&limit=2` }));
    await page.goto(`/all_products?q=${tag}&sort=price_asc`);
    await page.getByText('5 TVs', { exact: true }).waitFor();
    const more = page.getByRole('button', { name: 'Load more' });
    const focusedTitle = () => page.evaluate('document.activeElement?.closest("h3")?.textContent ?? null');
    await more.click();
    await expect.poll(focusedTitle).toBe(qled.name);
    await more.click();
    await expect.poll(focusedTitle).toBe(dear);
    expect(await more.count()).toBe(0);
    await page.unrouteAll();

    // Nothing found, and a search the server refuses: the empty state, and its problem's words.
    await page.goto(`/all_products?q=nothing${tag}here`);
    await page.getByText('No TVs match your search.').waitFor();
    await page.getByText('0 TVs', { exact: true }).waitFor();
    // A category the shop does not have is a 404, as an unknown product or seller is.
    await page.goto(`/catagories/no-such-brand-${tag}`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    // A hand-edited link with the prices the wrong way round: said in a buyer's words, no search sent, no Retry.
    await page.goto('/all_products?minPrice=30000&maxPrice=10000');
    const refused = page.getByRole('alert').filter({ hasText: 'Min price must not be above max price.' });
    await refused.getByText('Change the prices in the filters to see the TVs.').waitFor();
    expect(await refused.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await snap(page, '14-search-refused');

    // A product that does not exist is the not-found page.
    await page.goto('/products/no-such-product');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.title()).toBe('Page Not Found -- TV Shop');
    expect(crystalId).not.toBe('');
  } finally {
    await browser.close();
  }
});
