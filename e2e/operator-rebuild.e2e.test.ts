import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import { api, card, listTv, sellerWithProduct, uniqueEmail } from './support/shop';

const baseUrl = inject('baseUrl');
const databaseUrl = inject('databaseUrl');
const newPage = useBrowser(baseUrl);
const root = fileURLToPath(new URL('..', import.meta.url));

/** `npm run projector -- <args>` as an operator runs it beside the shop: a process of its own. */
function projectorTool(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/projector/src/main.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

test('when an operator rebuilds a damaged read model beside the running shop, then open pages show the repaired rows with no reload', async () => {
  const productName = `Walton 32" Smart ${Date.now()}`;
  const damagedName = `Damaged row ${Date.now()}`;
  const seller = await sellerWithProduct(baseUrl, 'Rangpur Screens', productName);
  // A read model damaged by hand: what the log says is no longer what the tables hold.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('update rm_catalog.products set name = $1 where id = $2', [damagedName, seller.productId]);
  } finally {
    await db.end();
  }

  const page = await newPage();
  await page.goto('/all_products');
  await card(page, damagedName).waitFor();
  await waitLive(page);
  await markNoReload(page);
  await snap(page, '19-damaged-read-model');

  // The operator's repair, with the shop running: the catalog replayed from the log and swapped in.
  const rebuild = await projectorTool('rebuild', 'catalog');
  expect(rebuild.code, rebuild.output).toBe(0);
  expect(rebuild.output).toMatch(/rebuilt catalog up to position \d+/);

  // Nothing else happens in the shop: its gateway finds the swap in the checkpoints (every 5 s)
  // and tells every open page, which reads its lists again within 2 s.
  await card(page, productName).waitFor({ timeout: 15_000 });
  expect(await card(page, damagedName).count()).toBe(0);
  expect(await stillSamePage(page)).toBe(true);
  await snap(page, '19-repaired-without-reload');

  // And the repaired read model is what the log says, row for row.
  const verify = await projectorTool('verify', 'catalog');
  expect(verify.code, verify.output).toBe(0);
});

test('when a rebuild tells an open search to read again, then the visitor keeps the pages they loaded, repaired', async () => {
  // More listings than a page (24) that one word finds, one of them on the second page damaged.
  const word = `Rebuildtest${Date.now()}`;
  const client = api(baseUrl);
  const { token } = await client.signup('Barisal Displays', uniqueEmail('seller'), 'Seller');
  const photo = await client.uploadImage(token, [22, 101, 52]);
  const ids: string[] = [];
  for (let n = 1; n <= 27; n++) {
    // Of no brand, place or price another journey searches for (the journeys share one shop).
    const answer = await listTv(baseUrl, token, `${word} Screen ${n}`, {
      productImage: photo,
      category_id: 'other',
      location: 'Barisal Sadar',
      resale_price: 64000,
      orginal_price: 98000,
    });
    ids.push(answer.insertedId ?? '');
  }
  const damagedName = `${word} damaged row`;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // The second listing is the second oldest: on the second page, newest first.
    await db.query('update rm_catalog.products set name = $1 where id = $2', [damagedName, ids[1]]);
  } finally {
    await db.end();
  }

  const page = await newPage();
  const exactCard = (name: string) =>
    page.locator('article.product-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
  await page.goto(`/all_products?q=${word}`);
  await exactCard(`${word} Screen 27`).waitFor();
  await page.getByRole('button', { name: 'Load more' }).click();
  await exactCard(damagedName).waitFor();
  const cards = page.locator('article.product-card');
  await expect.poll(() => cards.count()).toBe(27);
  await waitLive(page);
  await markNoReload(page);

  const rebuild = await projectorTool('rebuild', 'catalog');
  expect(rebuild.code, rebuild.output).toBe(0);

  // Read again as far as it was shown: both pages, the damaged row repaired in its place.
  await exactCard(`${word} Screen 2`).waitFor({ timeout: 15_000 });
  expect(await exactCard(damagedName).count()).toBe(0);
  expect(await cards.count()).toBe(27);
  expect(await exactCard(`${word} Screen 1`).count()).toBe(1);
  expect(await stillSamePage(page)).toBe(true);
});
