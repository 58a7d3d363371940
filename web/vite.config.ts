import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { PAGE_PRELOADS } from './src/config/page-preloads';

// In dev the API and the live socket come from the gateway on :3000; in one-process mode
// the gateway serves web/dist itself, so the built app only ever talks to its own origin.
const gateway = process.env.TV_SHOP_GATEWAY ?? 'http://localhost:3000';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Below this a compressed copy saves less than its Content-Encoding costs. */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset of the build, at the strongest
 * settings (they are made once, at build time), so the gateway serves them without compressing
 * on each request (services/gateway/src/http/static.ts; ADR 0041).
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'tv-shop:precompress',
    apply: 'build',
    // After the files are written, and only when the build succeeded.
    async writeBundle(options, bundle) {
      const dir = options.dir ?? '';
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name) && !name.startsWith('.vite/'));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name);
          const body = await readFile(file);
          if (body.length < MIN_BYTES) return;
          const [br, gzipped] = await Promise.all([
            brotli(body, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
            gz(body, { level: 9 }),
          ]);
          if (br.length < body.length) await writeFile(`${file}.br`, br);
          if (gzipped.length < body.length) await writeFile(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}

/**
 * Writes `page-preloads.json` beside index.html: for each page of src/config/page-preloads.ts,
 * the chunks (and their CSS) its route modules load beyond what index.html already names, and
 * the public reads it starts with. The gateway names them in the page's HTML as preloads, so a
 * phone fetches them alongside the app's script instead of one round trip after it (ADR 0043).
 */
function pagePreloads(): Plugin {
  return {
    name: 'tv-shop:page-preloads',
    apply: 'build',
    async writeBundle(options, bundle) {
      const chunks = Object.values(bundle).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: Rollup.OutputChunk[]) => {
        const seen = new Set<Rollup.OutputChunk>();
        const visit = (c: Rollup.OutputChunk | undefined) => {
          if (!c || seen.has(c)) return;
          seen.add(c);
          c.imports.forEach((f) => visit(byFile.get(f)));
        };
        start.forEach(visit);
        return [...seen];
      };
      // index.html already names the entry's chunks and CSS.
      const shell = new Set(closure(chunks.filter((c) => c.isEntry)));
      const shellCss = new Set([...shell].flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]));
      const root = fileURLToPath(new URL('.', import.meta.url));
      const pages = PAGE_PRELOADS.map((page) => {
        const own = page.modules.map((m) => {
          const chunk = chunks.find((c) => c.facadeModuleId === path.join(root, m));
          if (!chunk) throw new Error(`page-preloads.ts names ${m}, which is no chunk of the build`);
          return chunk;
        });
        const loaded = closure(own).filter((c) => !shell.has(c));
        const css = [...new Set(loaded.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]))].filter((f) => !shellCss.has(f));
        return {
          path: page.path,
          modules: loaded.map((c) => `/${c.fileName}`),
          styles: css.map((f) => `/${f}`),
          reads: page.reads,
        };
      });
      await writeFile(path.join(options.dir ?? '', 'page-preloads.json'), `${JSON.stringify({ pages }, null, 2)}\n`);
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress(), pagePreloads()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: {
      '/api': { target: gateway, changeOrigin: true },
      '/socket.io': { target: gateway, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/bundle-budget.mjs reads it: each route's JavaScript, gzipped, against its budget.
    manifest: true,
    rollupOptions: {
      // The contracts package also holds the server's zod schemas; the browser only takes its
      // constants and types, so its modules must not drag zod in for their side effects.
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/contracts/') },
    },
  },
});
