import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { expect, inject, test } from 'vitest';
import { useBrowser, snap } from './support/browser';
import { markNoReload, stillSamePage, waitLive } from './support/live';
import { card, sellerWithProduct } from './support/shop';

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
