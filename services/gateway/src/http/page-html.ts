import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { REVALIDATE } from './static';

/**
 * One page's preloads as the web build lists them in `page-preloads.json` (web/vite.config.ts,
 * web/src/config/page-preloads.ts): the chunks and CSS its code loads beyond index.html's, and
 * the public API reads it starts with (`:id` being the page's own).
 */
interface PagePreload {
  path: string;
  modules: string[];
  styles: string[];
  reads: string[];
}

/** A path parameter worth naming in a read: an id as the shop writes them (uuids, slugs). */
const ID = /^[A-Za-z0-9_-]{1,128}$/;
const ASSET = /^\/assets\/[\w.-]+\.(js|css)$/;

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page's `:id` when `pattern` (e.g. /products/:id) matches `pathname`; `null` when it does not match. */
export function matchPage(pattern: string, pathname: string): { id?: string } | null {
  const want = pattern.split('/');
  const got = pathname.replace(/\/+$/, '').split('/');
  if (pattern === '/') return pathname === '/' ? {} : null;
  if (want.length !== got.length) return null;
  const params: { id?: string } = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i] === ':id') {
      let id: string;
      try {
        id = decodeURIComponent(got[i]!);
      } catch {
        return null;
      }
      if (!id) return null;
      params.id = id;
    } else if (want[i] !== got[i]) return null;
  }
  return params;
}

/**
 * The `<link>`s that let a phone fetch a page's code and first reads alongside the app's script
 * rather than a round trip or two after it has run (ADR 0043): modulepreload for its chunks, a
 * preload for its CSS and for its public reads. Reads are named only for a URL without a query
 * string (a search in the URL reads something else) and an id of the expected shape; anything
 * else gets the code only.
 */
export function preloadLinks(pages: readonly PagePreload[], pathname: string, hasQuery: boolean): string {
  for (const page of pages) {
    const params = matchPage(page.path, pathname);
    if (!params) continue;
    const links = [
      ...page.modules.filter((m) => ASSET.test(m)).map((m) => `<link rel="modulepreload" href="${escapeAttribute(m)}">`),
      ...page.styles.filter((s) => ASSET.test(s)).map((s) => `<link rel="preload" as="style" href="${escapeAttribute(s)}">`),
    ];
    const idOk = params.id === undefined || ID.test(params.id);
    if (!hasQuery && idOk) {
      for (const read of page.reads) {
        if (!read.startsWith('/api/')) continue;
        if (read.includes(':id') && params.id === undefined) continue;
        const url = read.replace(':id', encodeURIComponent(params.id ?? ''));
        // crossorigin: a fetch() is a CORS-mode request; without it the page's own fetch would not use the preload.
        links.push(`<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeAttribute(url)}">`);
      }
    }
    return links.join('');
  }
  return '';
}

interface Loaded {
  stamp: string;
  html: string;
  pages: PagePreload[];
}

/**
 * Answers any page of the app with index.html, revalidated on every visit (it names the hashed
 * scripts of the build now being served), with that page's preloads in its head. The build is
 * read again when index.html changes on disk; without page-preloads.json (an older build) the
 * page comes as built.
 */
export function appPage(webDist: string, notBuilt: string): RequestHandler {
  const index = path.join(webDist, 'index.html');
  const manifest = path.join(webDist, 'page-preloads.json');
  let loaded: Loaded | null = null;
  const load = async (): Promise<Loaded | null> => {
    const s = await stat(index).catch(() => null);
    if (!s) return null;
    const stamp = `${s.mtimeMs}:${s.size}`;
    if (loaded?.stamp === stamp) return loaded;
    const html = await readFile(index, 'utf8');
    const pages = await readFile(manifest, 'utf8').then(
      (text) => (JSON.parse(text) as { pages?: PagePreload[] }).pages ?? [],
      () => [],
    );
    loaded = { stamp, html, pages };
    return loaded;
  };
  return (req, res, next) => {
    res.setHeader('Cache-Control', REVALIDATE);
    load().then((app) => {
      if (!app) return void res.type('html').send(notBuilt);
      const links = preloadLinks(app.pages, req.path, req.originalUrl.includes('?'));
      res.type('html').send(links ? app.html.replace('</head>', `${links}</head>`) : app.html);
    }, next);
  };
}
