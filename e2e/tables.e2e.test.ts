import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, expect, inject, test } from 'vitest';
import { useBrowser } from './support/browser';
import { ADMIN } from './support/shop';
import { settled, signInAs, stageShop, WIDTHS, type Stage } from './support/stage';

const baseUrl = inject('baseUrl');
const newPage = useBrowser(baseUrl);
const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let stage: Stage;
beforeAll(async () => {
  stage = await stageShop(baseUrl);
  await mkdir(SCREENSHOTS, { recursive: true });
});

/**
 * In the page, what is cut off as it is shown: the page scrolling sideways, a button, link, tag or
 * field reaching past the screen or out of its row, cell or table, a button or tag whose text does
 * not fit it, a column title, price, button or tag with a word broken across lines ("Avata / r"),
 * and anything in main that clips or scrolls its content sideways (a table hiding its last column
 * behind a scrollbar). One sentence per problem.
 */
const CUT_OFF = String.raw`(() => {
  const problems = [];
  const root = document.documentElement;
  const width = root.clientWidth;
  const name = (el) => {
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
    const text = (el.textContent || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return '<' + el.tagName.toLowerCase() + (cls ? '.' + cls : '') + '> "' + text + '"';
  };
  const tag = (el) => '<' + el.tagName.toLowerCase() + '>';
  const px = (a, b) => Math.round(a) + '..' + Math.round(b);
  const shown = (el) => el.checkVisibility() && el.getBoundingClientRect().width > 2;
  if (root.scrollWidth > width) problems.push('the page scrolls sideways: ' + root.scrollWidth + 'px wide in ' + width + 'px');
  const main = document.querySelector('main');
  for (const el of main.querySelectorAll('button, a, .ant-tag, .tag, input')) {
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.left < -0.5 || box.right > width + 0.5) problems.push(name(el) + ' reaches past the screen: ' + px(box.left, box.right) + ' of ' + width);
    for (const holder of [el.closest('td'), el.closest('tr, .seller-booking'), el.closest('.stack-table, .ant-table-wrapper, .seller-bookings')]) {
      if (!holder) continue;
      const outer = holder.getBoundingClientRect();
      if (box.left < outer.left - 0.5 || box.right > outer.right + 0.5)
        problems.push(name(el) + ' sticks out of its ' + tag(holder) + ': ' + px(box.left, box.right) + ' in ' + px(outer.left, outer.right));
    }
    if (el.matches('button, .ant-tag, .tag') && el.scrollWidth > el.clientWidth + 1)
      problems.push(name(el) + ' has its text cut: ' + el.scrollWidth + 'px of text in ' + el.clientWidth + 'px');
  }
  for (const el of main.querySelectorAll('th, td.cell-nowrap, button, .ant-tag, .tag')) {
    if (!shown(el)) continue;
    const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      for (const word of (node.textContent || '').matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) problems.push(name(el) + ': the word "' + word[0] + '" is broken across ' + lines.size + ' lines');
      }
    }
  }
  for (const el of main.querySelectorAll('*')) {
    if (!shown(el)) continue;
    const overflow = getComputedStyle(el).overflowX;
    if (overflow !== 'visible' && el.scrollWidth > el.clientWidth + 1)
      problems.push(name(el) + ' hides part of its content (overflow ' + overflow + '): ' + el.scrollWidth + 'px in ' + el.clientWidth + 'px');
  }
  return problems;
})()`;

function cutOff(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(CUT_OFF);
}

interface TablePage {
  path: string;
  /** A row of the stage's that must show, so the check looks at a filled table. */
  row: (stage: Stage) => string;
}

async function checkPages(page: Page, who: string, pages: TablePage[]): Promise<string[]> {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const { path, row } of pages) {
      await page.goto(path);
      await settled(page);
      await page.locator('main').getByText(row(stage)).first().waitFor();
      await page.waitForTimeout(300);
      problems.push(...(await cutOff(page)).map((p) => `${path} @${width}px: ${p}`));
      if (width === 390 || width === 1366) {
        const name = path.split('/').pop();
        await page.screenshot({ path: `${SCREENSHOTS}15-${who}-${name}-${width}.png`, fullPage: true });
      }
    }
  }
  return problems;
}

function report(problems: string[]) {
  if (problems.length) console.log(`\n${problems.length} things cut off:\n${problems.join('\n')}`);
  expect(problems).toEqual([]);
}

test("the buyer's My Orders fits at 390, 768, 1366 and 1920 px: the Pay button whole and on the screen", async () => {
  const page = await newPage();
  await signInAs(page, stage.buyer.email);
  report(
    await checkPages(page, 'buyer', [
      { path: '/dashboard/my_order', row: (s) => `Samsung 65" Neo QLED 4K Smart Television QN90B ${s.stamp}` },
    ]),
  );
  // On a phone the open order's Pay button is on the screen, no sideways scrolling needed.
  await page.setViewportSize({ width: 390, height: 844 });
  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await pay.scrollIntoViewIfNeeded();
  const box = (await pay.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});

test("the seller's My Products and My Bookings fit at every width", async () => {
  const page = await newPage();
  await signInAs(page, stage.seller.email);
  report(
    await checkPages(page, 'seller', [
      { path: '/dashboard/my_product', row: () => 'Remove Advertise' },
      { path: '/dashboard/my_bookings', row: (s) => `Nadia Rahman Chowdhury ${s.stamp}` },
    ]),
  );
});

test("the admin's All Sellers, All Buyers and Reported Items fit at every width", async () => {
  const page = await newPage();
  await signInAs(page, ADMIN.email, ADMIN.password);
  report(
    await checkPages(page, 'admin', [
      { path: '/dashboard/all_seller', row: (s) => s.pendingSellerName },
      { path: '/dashboard/all_buyer', row: (s) => s.buyer.email },
      { path: '/dashboard/reported_item', row: (s) => s.reportedName },
    ]),
  );
});
