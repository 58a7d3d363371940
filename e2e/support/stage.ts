import type { AddProductBody, AuthAnswer, PaymentIntentAnswer, SandboxConfirmAnswer, WriteAnswer } from '@tv-shop/contracts';
import type { Page } from 'playwright-core';
import { ADMIN, api, PASSWORD, uniqueEmail } from './shop';

/** Every width a dashboard has to fit (issue 15): a phone, a tablet, a laptop, a big screen. */
export const WIDTHS = [390, 768, 1366, 1920] as const;

async function call<T>(baseUrl: string, path: string, token: string, method: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface Stage {
  seller: AuthAnswer & { email: string };
  buyer: AuthAnswer & { email: string };
  admin: AuthAnswer;
  /** A listing still for sale, with its category. */
  productId: string;
  categoryId: string;
  /** The buyer's unpaid booking (of `productId`): its payment page. */
  openBookingId: string;
  /** A listing for sale the buyer has not booked: its Book Now opens the booking dialog. */
  unbookedProductId: string;
  /** A pending seller (Verify shows for them in All Sellers). */
  pendingSellerName: string;
  /** A listing the buyer reported (Reported Items shows it with its reason). */
  reportedName: string;
  stamp: string;
}

/**
 * A shop with every kind of row the dashboards show, made through the API: long names, an open,
 * a paid and a cancelled booking, sold and advertised listings, a pending and a verified seller,
 * a reported listing with its reason.
 */
export async function stageShop(baseUrl: string): Promise<Stage> {
  const client = api(baseUrl);
  const stamp = Date.now().toString(36);
  const sellerEmail = uniqueEmail('a11y-seller');
  const seller = await client.signup(`Gulshan Television Resellers ${stamp}`, sellerEmail, 'Seller');
  const productImage = await client.uploadImage(seller.token, [30, 64, 175]);
  const listing = (name: string, price: number): AddProductBody => ({
    porduct_name: name,
    productImage,
    details: 'Bright panel, no dead pixels, remote and wall mount included.',
    location: 'Road 11, Banani, Dhaka',
    resale_price: price,
    orginal_price: price * 2,
    use_duration: '2 years',
    phone_number: '01700000000',
    product_condition: 'Good',
    category_id: 'samsung',
  });
  const add = async (name: string, price: number) => (await client.addProduct(seller.token, listing(name, price))).insertedId ?? '';
  const open = await add(`Samsung 65" Neo QLED 4K Smart Television QN90B ${stamp}`, 123456);
  const paid = await add(`Samsung 43" Crystal UHD ${stamp}`, 31500);
  const cancelled = await add(`Samsung 32" HD ${stamp}`, 12000);
  const reported = await add(`Samsung 50" The Frame ${stamp}`, 55000);
  const advertised = await add(`Samsung 55" QLED Q60 with a very long listing name for the tables ${stamp}`, 64000);
  await call<WriteAnswer>(baseUrl, `/product/get_advertise/${advertised}`, seller.token, 'PUT');

  const buyerEmail = uniqueEmail('a11y-buyer');
  const buyer = await client.signup(`Nadia Rahman Chowdhury ${stamp}`, buyerEmail, 'Buyer');
  const openBookingId = (await client.book(buyer.token, open)).insertedId ?? '';
  const paidBookingId = (await client.book(buyer.token, paid)).insertedId ?? '';
  await client.book(buyer.token, cancelled);
  // The seller sells the TV elsewhere: the buyer's booking of it is cancelled, with its reason.
  await client.markSold(seller.token, cancelled);
  const intent = await call<PaymentIntentAnswer>(baseUrl, '/create-payment-intent', buyer.token, 'POST', { bookingId: paidBookingId });
  const confirmed = await call<SandboxConfirmAnswer>(baseUrl, '/payment-sandbox/confirm', buyer.token, 'POST', {
    clientSecret: intent.clientSecret,
    card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' },
  });
  await call<WriteAnswer>(baseUrl, '/payments', buyer.token, 'POST', {
    bookingId: paidBookingId,
    transationId: confirmed.paymentIntent.id,
  });
  await call<WriteAnswer>(baseUrl, `/product/add_reported/${reported}`, buyer.token, 'PUT', {
    reason: 'The photo shows a different TV from the one described in the listing.',
  });

  const pendingSellerName = `Pending Panels ${stamp}`;
  await client.signup(pendingSellerName, uniqueEmail('a11y-pending'), 'Seller');
  const admin = await client.login(ADMIN.email, ADMIN.password);
  await call<WriteAnswer>(baseUrl, `/user/seller_verified/${seller.user._id}`, admin.token, 'PUT', {});

  return {
    seller: { ...seller, email: sellerEmail },
    buyer: { ...buyer, email: buyerEmail },
    admin,
    productId: open,
    categoryId: 'samsung',
    openBookingId,
    unbookedProductId: advertised,
    pendingSellerName,
    reportedName: `Samsung 50" The Frame ${stamp}`,
    stamp,
  };
}

/** Signs in through the login page, as a person would. */
export async function signInAs(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.locator('form#login button[type="submit"]').click();
  await page.getByRole('status').filter({ hasText: 'Succusfully SignIn' }).first().waitFor();
}

/** Waits for a page to settle: its heading shown and no spinner or skeleton left. */
export async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page
    .locator('.ant-spin-spinning, .spinner, .skeleton-status')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  await page.waitForTimeout(250);
}
