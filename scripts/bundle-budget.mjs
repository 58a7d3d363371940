#!/usr/bin/env node
// `npm run check:bundle [-- DIR]`: the JavaScript each route of the web app makes a browser
// download, gzipped, from the Vite manifest of a build (web/dist unless DIR is given), beside the
// targets (home 170 KB, every route 250 KB) and how far each route still is from its target.
// Exits 1 when a route is over its ceiling in web/bundle-budget.json: the size it had when the
// ceiling was last lowered, plus 3%. A route not listed there must meet its target outright. The
// ceilings only ever go down (`-- --lower` rewrites them from the build) until they reach the
// targets (docs/adr/0041-compressed-cached-and-split-web-app.md).
//
// A route's JavaScript: the entry and its static imports, then the route's own lazy chunk (every
// dynamic entry under src/app/routes/) and its static imports, and, for a page under a folder with
// a layout.tsx (the dashboard), that layout's chunk and its imports too. Chunks the route imports
// dynamically later (the card form, the charts) are not counted: they load only when used.
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Targets and ceilings in gzipped bytes (KB = 1,000 bytes, as Vite reports sizes). */
const BUDGET_FILE = new URL('../web/bundle-budget.json', import.meta.url);
const budgetFile = JSON.parse(readFileSync(BUDGET_FILE, 'utf8'));
export const BUDGETS = budgetFile.targets;
const ROUTES_DIR = 'src/app/routes/';
const HOME = `${ROUTES_DIR}home.tsx`;

export function readManifest(dir) {
  const file = path.join(dir, '.vite', 'manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: build with build.manifest: true (web/vite.config.ts)`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Every manifest key reachable from `keys` through static imports, the keys themselves included. */
function staticClosure(manifest, keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

/** Each route's chunks and their gzipped total, the heaviest first after home. */
export function routeSizes(dir) {
  const manifest = readManifest(dir);
  const gz = new Map();
  const gzOf = (file) => {
    if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length);
    return gz.get(file);
  };
  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  if (entries.length === 0) throw new Error('The manifest has no entry');
  const routes = Object.keys(manifest).filter(
    (k) => manifest[k].isDynamicEntry && k.startsWith(ROUTES_DIR) && !k.endsWith('/layout.tsx') && /\.tsx?$/.test(k),
  );
  if (!routes.includes(HOME)) throw new Error(`${HOME} is not a lazy chunk of its own: routes must be loaded on demand`);
  const rows = [{ route: '(entry)', keys: entries }, ...routes.map((k) => ({ route: k.slice(ROUTES_DIR.length), keys: [...entries, k] }))];
  for (const row of rows) {
    const layout = path.posix.join(path.posix.dirname(row.keys.at(-1)), 'layout.tsx');
    if (row.route !== '(entry)' && layout !== row.keys.at(-1) && manifest[layout]) row.keys.push(layout);
  }
  return rows
    .map(({ route, keys }) => {
      const files = [...staticClosure(manifest, keys)].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
      const bytes = files.reduce((sum, f) => sum + gzOf(f), 0);
      const target = route === 'home.tsx' ? BUDGETS.home : BUDGETS.route;
      const ceiling = budgetFile.ceilings[route] ?? target;
      return { route, chunks: files.length, bytes, target, ceiling };
    })
    .sort((a, b) =>
      a.route === '(entry)' ? -1 : b.route === '(entry)' ? 1 : a.route === 'home.tsx' ? -1 : b.route === 'home.tsx' ? 1 : b.bytes - a.bytes,
    );
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const lower = args.includes('--lower');
  const dir = path.resolve(args.find((a) => !a.startsWith('--')) ?? 'web/dist');
  let rows;
  try {
    rows = routeSizes(dir);
  } catch (err) {
    console.error(`bundle budget: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
  console.log(`JavaScript per route, gzipped (${dir})`);
  console.table(
    rows.map((r) => ({
      route: r.route,
      chunks: r.chunks,
      'JS gz': kb(r.bytes),
      target: kb(r.target),
      'to go': r.bytes <= r.target ? 'met' : kb(r.bytes - r.target),
      ceiling: kb(r.ceiling),
      ok: r.bytes <= r.ceiling ? 'yes' : 'OVER',
    })),
  );
  const met = rows.filter((r) => r.bytes <= r.target).length;
  console.log(`targets met by ${met} of ${rows.length} routes`);
  if (lower) {
    // Ceilings only go down: a route's new ceiling is its size now plus 3%, never above the old one.
    const ceilings = { ...budgetFile.ceilings };
    for (const r of rows) {
      const next = Math.ceil((r.bytes * 1.03) / 1000) * 1000;
      if (r.bytes <= r.target) delete ceilings[r.route];
      else ceilings[r.route] = Math.min(next, ceilings[r.route] ?? next);
    }
    writeFileSync(BUDGET_FILE, `${JSON.stringify({ ...budgetFile, ceilings }, null, 2)}\n`);
    console.log('ceilings lowered in web/bundle-budget.json');
  }
  const over = rows.filter((r) => r.bytes > r.ceiling);
  if (over.length > 0) {
    console.error(`bundle budget: over its ceiling: ${over.map((r) => `${r.route} ${kb(r.bytes)} > ${kb(r.ceiling)}`).join(', ')}`);
    process.exit(1);
  }
}
