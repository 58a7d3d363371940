import { randomBytes } from 'node:crypto';
import type { AddProductBody, AuthAnswer, Product, WriteAnswer } from '@tv-shop/contracts';
import { expect } from 'vitest';
import type { Page, Request, Response } from 'playwright-core';
import { waitLive } from './live';
import { solidPng } from './png';

export const PASSWORD = 'secret-password-1';
/** The admin the test server is started with. */
export const ADMIN = { email: 'admin@tvshop.test', password: 'admin-password-1' };

export function uniqueEmail(who: string): string {
  return `${who}-${randomBytes(4).toString('hex')}@tvshop.test`;
}

/** Direct API calls, to set the stage quickly for journeys about something else. */
export function api(baseUrl: string) {
  const call = async <T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
    if (typeof init.body === 'string') headers.set('Content-Type', 'application/json');
    const response = await fetch(`${baseUrl}/api${path}`, { ...init, headers });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} -> ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    signup: (name: string, email: string, role: 'Buyer' | 'Seller') =>
      call<AuthAnswer>('/auth/signup', { method: 'POST', body: JSON.stringify({ name, email, password: PASSWORD, role }) }),
    login: (email: string, password: string) =>
      call<AuthAnswer>('/auth/login', { method: 'POST', body: JSON.stringify({ email, password }) }),
    uploadImage: async (token: string, color: [number, number, number]) => {
      const form = new FormData();
      form.append('image', new Blob([solidPng(320, 200, color)], { type: 'image/png' }), 'tv.png');
      const answer = await call<{ data: { url: string } }>('/images', { method: 'POST', body: form, token });
      return answer.data.url;
    },
    /** A photo as the web app uploads it: the stored image and the thumbnail made of it. */
    uploadPhoto: async (token: string, color: [number, number, number]) => {
      const form = new FormData();
      form.append('image', new Blob([solidPng(320, 200, color)], { type: 'image/png' }), 'tv.png');
      return (await call<{ data: { url: string; thumbnailUrl: string } }>('/images', { method: 'POST', body: form, token })).data;
    },
    /** The signed-in user's new name (their profile's other fields as they are). */
    rename: (token: string, email: string, name: string) =>
      call<WriteAnswer>(`/users?email=${encodeURIComponent(email)}`, { method: 'PUT', body: JSON.stringify({ name }), token }),
    addProduct: (token: string, body: AddProductBody) =>
      call<WriteAnswer>('/products', { method: 'POST', body: JSON.stringify(body), token }),
    allProducts: () => call<Product[]>('/all_products'),
    /** The seller's edit of their listing: the whole listing, as Add Product sends it. */
    editProduct: (token: string, productId: string, body: AddProductBody) =>
      call<WriteAnswer>(`/product/${productId}`, { method: 'PUT', body: JSON.stringify(body), token }),
    markSold: (token: string, productId: string) =>
      call<WriteAnswer>(`/product/sold_status/${productId}`, { method: 'PUT', body: '{}', token }),
    /** The seller advertises their listing (Home shows it), or stops. */
    advertise: (token: string, productId: string, on = true) =>
      call<WriteAnswer>(`/product/${on ? 'get_advertise' : 'remove_advertise'}/${productId}`, { method: 'PUT', body: '{}', token }),
    /** The seller takes their own listing off TV Shop. */
    withdraw: (token: string, productId: string) =>
      call<WriteAnswer>(`/product/withdraw/${productId}`, { method: 'PUT', body: '{}', token }),
    /** The seller makes a TV they marked sold (nobody paid for it) available again. */
    markAvailable: (token: string, productId: string) =>
      call<WriteAnswer>(`/product/unsold_status/${productId}`, { method: 'PUT', body: '{}', token }),
    book: (token: string, productId: string) =>
      call<WriteAnswer>('/bookings', {
        method: 'POST',
        body: JSON.stringify({ product_id: productId, phone_number: '01933333333', meeting_location: 'Mirpur 10' }),
        token,
      }),
    /** A buyer reports a listing, saying why. */
    report: (token: string, productId: string, reason: string) =>
      call<WriteAnswer>(`/product/add_reported/${productId}`, { method: 'PUT', body: JSON.stringify({ reason }), token }),
    /** The admin keeps a reported listing: its reports are dismissed. */
    dismissReports: (token: string, productId: string) =>
      call<WriteAnswer>(`/product/dismiss_reports/${productId}`, { method: 'PUT', body: '{}', token }),
    verifySeller: (token: string, userId: string) =>
      call<WriteAnswer>(`/user/seller_verified/${userId}`, { method: 'PUT', body: '{}', token }),
    deleteUser: (token: string, userId: string) => call<WriteAnswer>(`/users/${userId}`, { method: 'DELETE', token }),
  };
}

/** Lists a TV named `productName` for the seller of `token` through the API (a Samsung unless `over` says otherwise), with a photo of one colour. */
export async function listTv(
  baseUrl: string,
  token: string,
  productName: string,
  over: Partial<AddProductBody> = {},
  color: [number, number, number] = [30, 64, 175],
) {
  const client = api(baseUrl);
  return client.addProduct(token, {
    porduct_name: productName,
    productImage: await client.uploadImage(token, color),
    details: 'Bright panel, no dead pixels, remote included.',
    location: 'Dhanmondi, Dhaka',
    resale_price: 18500,
    orginal_price: 42000,
    use_duration: '2 years',
    phone_number: '01700000000',
    product_condition: 'Good',
    category_id: 'samsung',
    ...over,
  });
}

/** The listing as it is, at another price: the body of its seller's edit (the cover alone keeps its other photos). */
export async function atNewPrice(baseUrl: string, productId: string, price: number): Promise<AddProductBody> {
  const listed = (await api(baseUrl).allProducts()).find((p) => p._id === productId)!;
  return {
    porduct_name: listed.porduct_name,
    productImage: listed.productImage,
    details: listed.details,
    location: listed.location,
    resale_price: price,
    orginal_price: listed.orginal_price,
    use_duration: '2 years',
    phone_number: listed.phone_number,
    product_condition: listed.product_condition,
    category_id: listed.category_id,
  };
}

/** A seller with one listing, made through the API; answers the product's name. */
export async function sellerWithProduct(baseUrl: string, sellerName: string, productName: string) {
  const email = uniqueEmail('seller');
  const { token } = await api(baseUrl).signup(sellerName, email, 'Seller');
  const answer = await listTv(baseUrl, token, productName);
  return { email, token, productId: answer.insertedId ?? '' };
}

/** Fills the payment page's card form and waits until Pay may be pressed; answers Pay. */
export async function fillCard(page: Page, cardNumber = '4242 4242 4242 4242') {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await expect.poll(() => pay.isEnabled()).toBe(true);
  return pay;
}

/**
 * Picks `option` in the choice labelled `label`: the browser's own <select> (the forms and the
 * search filters), or antd's Select (opened through its label, the option clicked by its text).
 */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  if ((await field.evaluate((el: { tagName: string }) => el.tagName)) === 'SELECT') {
    await field.selectOption({ label: option });
    return;
  }
  // The selected value's span sits over the input, so the click is forced through it.
  await field.click({ force: true });
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

export async function expectToast(page: Page, text: string): Promise<void> {
  await page.getByRole('status').filter({ hasText: text }).first().waitFor();
}

export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  // The form's own submit button, once idle: while an earlier attempt is in flight antd shows it
  // as loading (its accessible name then reads "loading Login") and ignores clicks.
  const submit = page.locator('form#login button[type="submit"]');
  await submit.and(page.locator(':not(.ant-btn-loading)')).waitFor();
  await submit.click();
  await expectToast(page, 'Succusfully SignIn');
}

export async function logInFromHome(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await logIn(page, email, password);
  expect(new URL(page.url()).pathname).toBe('/');
}

/** A signed-in buyer opens My Orders as a person would: Dashboard in the main menu, then My Order. */
export async function openMyOrders(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }).click();
}

/** A buyer with no orders signs in from the home page and opens My Orders, live. */
export async function onEmptyMyOrdersLive(page: Page, email: string, password: string): Promise<void> {
  await logInFromHome(page, email, password);
  await openMyOrders(page);
  await page.getByText('No Order Available').waitFor();
  await waitLive(page);
}

/** The card of one product, found by its heading. */
export function card(page: Page, productName: string) {
  return page.locator('article.product-card').filter({ has: page.getByRole('heading', { name: productName }) });
}

/**
 * The answer to the write `act` makes the page send (the first `method` call whose path holds
 * `path`). It waits past the server's own bound (a write's answer waits at most 10 s for the read
 * models, then says `X-Read-Models: behind`), and a failure says whether the browser sent the call
 * at all, so a slow machine and a lost click read differently in CI's output.
 */
export async function answerOf(page: Page, method: string, path: string, act: () => Promise<void>): Promise<Response> {
  const matches = (r: Request) => r.method() === method && r.url().includes(path);
  let sentAt: number | null = null;
  const onRequest = (r: Request) => {
    if (matches(r) && sentAt === null) sentAt = Date.now();
  };
  page.on('request', onRequest);
  const answered = page.waitForResponse((r) => matches(r.request()), { timeout: 20_000 });
  answered.catch(() => {}); // awaited below, after `act`: a failing act must not leave it unhandled
  try {
    await act();
    return await answered;
  } catch (err) {
    const what = sentAt === null ? 'the page never sent it' : `sent ${Date.now() - sentAt} ms ago, no answer yet`;
    throw new Error(`${method} ${path}: ${what}`, { cause: err });
  } finally {
    page.off('request', onRequest);
  }
}

/**
 * The server gets each `method` call to `url` and does it, but the page never hears back from
 * the first `lost` of them (the connection drops on the way back); later ones pass. Answers the
 * Idempotency-Key of every call, in order.
 */
export async function loseAnswers(page: Page, url: string, method: string, lost: number): Promise<string[]> {
  const keys: string[] = [];
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.continue();
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    const answer = await route.fetch();
    if (keys.length <= lost) return route.abort('connectionreset');
    return route.fulfill({ response: answer });
  });
  return keys;
}

/** A listing as the Add Product form takes it: the fields' text, and the choices' visible labels. */
export interface ListingForm {
  name: string;
  location: string;
  resalePrice: string;
  originalPrice: string;
  phone: string;
  condition: string;
  yearsOfUse: string;
  category: string;
  details: string;
}

/** Fills the Add Product (or Edit Listing) form's fields, photos apart. */
export async function fillListing(page: Page, listing: ListingForm): Promise<void> {
  await page.getByLabel('Product Name').fill(listing.name);
  await page.getByLabel('Location').fill(listing.location);
  await page.getByLabel('Resale Price (TK)').fill(listing.resalePrice);
  await page.getByLabel('Original Price (TK)').fill(listing.originalPrice);
  await page.getByLabel('Phone Number').fill(listing.phone);
  await choose(page, 'Condition', listing.condition);
  await choose(page, 'Years of Use', listing.yearsOfUse);
  await choose(page, 'Category', listing.category);
  await page.getByLabel('Details').fill(listing.details);
}
