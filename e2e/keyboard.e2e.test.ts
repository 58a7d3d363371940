import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, inject, test } from 'vitest';
import { snapAsIs, useBrowser } from './support/browser';
import { ADMIN, api, expectToast, PASSWORD, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);

interface Stop {
  name: string;
  visible: boolean;
  ring: string;
  programmatic?: boolean;
}

/**
 * In the page, where focus is and whether one can see it: a ring (outline of 2px or more, not
 * transparent) on the focused element, or on the antd box that wraps a focused input (the ring
 * goes round the box). The focused element must match :focus-visible, as it does after a key press.
 */
const FOCUS_STOP = String.raw`(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const ringed = el.closest('.ant-select, .ant-input-affix-wrapper, .ant-input-number, .ant-picker') || el;
  const style = getComputedStyle(ringed);
  const visible = el.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 &&
    !/rgba\(.*,\s*0\)$|transparent/.test(style.outlineColor);
  // Not a Tab stop: where the app moves focus after a page change (main, the page's heading),
  // deliberately without a ring. Tab goes on from there.
  if (el.tabIndex < 0) return { name: '', visible: true, ring: '', programmatic: true };
  const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent) || el.textContent || '';
  return {
    name: '<' + el.tagName.toLowerCase() + '> ' + label.trim().replace(/\s+/g, ' ').slice(0, 40),
    visible,
    ring: style.outlineStyle + ' ' + style.outlineWidth + ' ' + style.outlineColor,
  };
})()`;

function focusStop(page: Page): Promise<Stop | null> {
  return page.evaluate<Stop | null>(FOCUS_STOP);
}

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, checking at every stop on the way that the
 * focus can be seen; answers the stops it passed.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<string[]> {
  const passed: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const stop = await focusStop(page);
    if (!stop || stop.programmatic) continue;
    passed.push(stop.name);
    expect(stop.visible, `focus on ${stop.name} cannot be seen (outline: ${stop.ring}); stops: ${passed.join(' → ')}`).toBe(true);
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement || el.contains(el.ownerDocument.activeElement))) return passed;
  }
  throw new Error(`Tab never reached the target; stops: ${passed.join(' → ')}`);
}

/** Fills the focused field by typing, as a person at a keyboard does. */
async function typeHere(page: Page, text: string) {
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

/** From the home page: Tab through the top navigation to Login, then sign in with the keyboard. */
async function logInWithKeyboard(page: Page, email: string, password: string) {
  await page.goto('/');
  await page.locator('main h1').waitFor();
  const main = page.getByRole('navigation', { name: 'Main' });
  const stops = await tabTo(page, main.getByRole('link', { name: 'Login' }));
  // Every link of the top navigation was a stop, each with its ring.
  for (const link of ['Home', 'All Products', 'Dashboard', 'Blogs']) expect(stops.some((s) => s.endsWith(link))).toBe(true);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Login', level: 1 }).waitFor();
  const emailField = page.getByLabel('Email');
  if (!(await emailField.evaluate((el) => el === el.ownerDocument.activeElement))) await tabTo(page, emailField);
  await typeHere(page, email);
  await tabTo(page, page.getByLabel('Password'));
  await typeHere(page, 'not-the-password');
  // Past the button and back again: Shift+Tab walks the same stops backwards.
  await tabTo(page, page.locator('form#login button[type="submit"]'));
  await tabTo(page, page.getByLabel('Password'), { back: true });
  await typeHere(page, password);
  await page.keyboard.press('Enter');
  await expectToast(page, 'Succusfully SignIn');
}

let productName: string;
let pendingSeller: string;
let leavingBuyer: string;
let buyerEmail: string;

beforeAll(async () => {
  productName = `Vision 43 Keyboard ${Date.now().toString(36)}`;
  await sellerWithProduct(baseUrl, 'Keyboard Electronics', productName);
  buyerEmail = uniqueEmail('keyboard-buyer');
  await api(baseUrl).signup('Keya Buyer', buyerEmail, 'Buyer');
  pendingSeller = `Keyboard Pending Seller ${Date.now().toString(36)}`;
  await api(baseUrl).signup(pendingSeller, uniqueEmail('keyboard-seller'), 'Seller');
  leavingBuyer = `Keyboard Leaving Buyer ${Date.now().toString(36)}`;
  await api(baseUrl).signup(leavingBuyer, uniqueEmail('keyboard-leaving'), 'Buyer');
});

test('with the keyboard alone a buyer signs in, books a TV and pays with the sandbox card, seeing the focus at every stop', async () => {
  const page = await newPage();
  await logInWithKeyboard(page, buyerEmail, PASSWORD);

  // All Products, search for the TV, then its Book Now.
  await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Products' }));
  await snapAsIs(page, '15-keyboard-nav-focus');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'All Our Resale Products' }).waitFor();
  await tabTo(page, page.getByLabel('Search', { exact: true }));
  await page.keyboard.type(productName);
  await page.keyboard.press('Enter');
  const card = page.locator('article.product-card').filter({ hasText: productName });
  await page.getByText('1 TV', { exact: true }).waitFor();
  await card.waitFor();
  const bookNow = card.getByRole('button', { name: 'Book Now' });
  const focused = (locator: typeof bookNow) => locator.evaluate((el) => el === el.ownerDocument.activeElement);
  await tabTo(page, bookNow);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  const phone = dialog.getByLabel('Phone Number');
  // The phone field has the focus as the dialog appears, not after its opening animation: what
  // is typed at once lands there.
  await phone.waitFor();
  expect(await focused(phone)).toBe(true);
  await page.keyboard.type('019');
  expect(await phone.inputValue()).toBe('019');
  // Escape closes the dialog and gives the focus back to Book Now; Enter opens it again, empty.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => focused(bookNow)).toBe(true);
  await page.keyboard.press('Enter');
  await phone.waitFor();
  expect(await focused(phone)).toBe(true);
  expect(await phone.inputValue()).toBe('');
  await page.keyboard.type('01922222222');
  await tabTo(page, dialog.getByLabel('Meeting Location'));
  await page.keyboard.type('Banani Road 11');
  await tabTo(page, dialog.getByRole('button', { name: 'Submit' }));
  await page.keyboard.press('Enter');
  await expectToast(page, 'Booking successfully');
  await dialog.waitFor({ state: 'hidden' });
  // Book Now has given way to the way to pay, and the focus went with it, not to the page.
  const booked = card.getByRole('link', { name: 'Booked: pay in My Orders' });
  await booked.waitFor();
  await expect.poll(() => focused(booked), { timeout: 5_000 }).toBe(true);

  // Dashboard, My Order, Pay.
  await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }), { back: true });
  await page.keyboard.press('Enter');
  await page.getByText('Welcome, Buyer').waitFor();
  await tabTo(page, page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Order' }));
  await page.keyboard.press('Enter');
  const row = page.locator('tr').filter({ hasText: productName });
  await row.waitFor();
  await tabTo(page, row.getByRole('button', { name: 'Pay', exact: true }));
  await snapAsIs(page, '15-keyboard-pay-focus');
  await page.keyboard.press('Enter');
  await page.getByText('Payment With Stripe').waitFor();

  await tabTo(page, page.getByLabel('Card number'));
  await page.keyboard.type('4242 4242 4242 4242');
  await tabTo(page, page.getByLabel('Expiry (MM/YY)'));
  await page.keyboard.type('12/34');
  await tabTo(page, page.getByLabel('CVC'));
  await page.keyboard.type('123');
  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await expect.poll(() => pay.isEnabled()).toBe(true);
  await tabTo(page, pay);
  await page.keyboard.press('Space');
  await page.getByText('Payment success').waitFor();
});

test('with the keyboard alone the admin verifies a seller, seeing the focus at every stop', async () => {
  const page = await newPage();
  await logInWithKeyboard(page, ADMIN.email, ADMIN.password);
  await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }), { back: true });
  await page.keyboard.press('Enter');
  await page.getByText('Welcome, Admin').waitFor();
  await tabTo(page, page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'All Sellers' }));
  await page.keyboard.press('Enter');
  const row = page.locator('tr').filter({ hasText: pendingSeller });
  await row.waitFor();
  await tabTo(page, row.getByRole('button', { name: `Verify ${pendingSeller}` }), { max: 200 });
  await page.keyboard.press('Space');
  await expectToast(page, 'Status Change Successfully');
  await row.getByText('Approved').waitFor();
  await row.getByText('Verified', { exact: true }).waitFor();
  // The Verify button went with what it did: the focus is on what the row says now, in the same
  // row (not on another seller's Verify, which would approve at a keystroke).
  const focused = () =>
    page.evaluate<{ name: string; row: number }>(
      "(() => { const el = document.activeElement; return { name: el?.getAttribute('aria-label') ?? el?.textContent ?? '', row: el?.closest('tr')?.rowIndex ?? -1 }; })()",
    );
  await expect.poll(async () => (await focused()).name).toBe('Approved');
  expect((await focused()).row).toBe(await row.evaluate((tr) => (tr as unknown as { rowIndex: number }).rowIndex));

  // Deleting asks first: the question takes the focus (on Cancel), Escape closes it and gives the
  // focus back to the button that asked; asked again, Tab reaches Delete and Enter deletes.
  await tabTo(page, page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'All Buyers' }), {
    back: true,
    max: 200,
  });
  await page.keyboard.press('Enter');
  const buyerRow = page.locator('tr').filter({ hasText: leavingBuyer });
  await buyerRow.waitFor();
  const del = buyerRow.getByRole('button', { name: `Delete ${leavingBuyer}` });
  await tabTo(page, del, { max: 200 });
  await page.keyboard.press('Enter');
  const question = page.locator('.ant-popconfirm').filter({ hasText: `Delete ${leavingBuyer}?` });
  const cancel = question.getByRole('button', { name: 'Cancel' });
  await expect.poll(() => cancel.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  await page.keyboard.press('Escape');
  await question.waitFor({ state: 'hidden' });
  expect(await del.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  await page.keyboard.press('Enter');
  await expect.poll(() => cancel.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  const at = await buyerRow.evaluate((tr) => ({ row: (tr as unknown as { rowIndex: number }).rowIndex, last: !tr.nextElementSibling }));
  await tabTo(page, question.getByRole('button', { name: 'Delete' }), { max: 3 });
  // Tab goes round the question's two buttons, never out of it to the end of the page.
  await page.keyboard.press('Tab');
  await expect.poll(() => cancel.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  await page.keyboard.press('Shift+Tab');
  const confirmDelete = question.getByRole('button', { name: 'Delete' });
  await expect.poll(() => confirmDelete.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  await page.keyboard.press('Enter');
  await expectToast(page, 'Successfully Delete User');
  await buyerRow.waitFor({ state: 'detached' });
  // Its row went: the focus is on the Delete of the row now in its place (the one before, had it been the last).
  await expect.poll(async () => (await focused()).name).toMatch(/^Delete /);
  expect((await focused()).row).toBe(at.last ? at.row - 1 : at.row);
});
