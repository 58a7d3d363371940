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
  // Like the web app's router: a trailing slash and the case of the fixed parts do not matter.
  const want = pattern.toLowerCase().split('/');
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
    } else if (want[i] !== got[i]!.toLowerCase()) return null;
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
      // crossorigin as Vite loads a chunk's CSS, or the browser would not use the preload.
      ...page.styles.filter((s) => ASSET.test(s)).map((s) => `<link rel="preload" as="style" crossorigin href="${escapeAttribute(s)}">`),
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

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * The pages of a `page-preloads.json`, or none when it is missing, cut short or not of that
 * shape (a build half written, a hand edit): the page then comes as built, never as an error.
 */
export function parsePreloads(text: string | null): PagePreload[] {
  if (text === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const pages = (parsed as { pages?: unknown } | null)?.pages;
  if (!Array.isArray(pages)) return [];
  return pages.filter(
    (p): p is PagePreload =>
      typeof p === 'object' &&
      p !== null &&
      typeof (p as PagePreload).path === 'string' &&
      strings((p as PagePreload).modules) &&
      strings((p as PagePreload).styles) &&
      strings((p as PagePreload).reads),
  );
}

const stampOf = async (file: string) => {
  const s = await stat(file).catch(() => null);
  return s ? `${s.mtimeMs}:${s.size}` : 'none';
};

/**
 * Answers any page of the app with index.html, revalidated on every visit (it names the hashed
 * scripts of the build now being served), with that page's preloads in its head. The build is
 * read again when index.html or page-preloads.json changes on disk (a build writes the second
 * after the first); without a usable page-preloads.json the page comes as built.
 */
export function appPage(webDist: string, notBuilt: string): RequestHandler {
  const index = path.join(webDist, 'index.html');
  const manifest = path.join(webDist, 'page-preloads.json');
  let loaded: Loaded | null = null;
  const load = async (): Promise<Loaded | null> => {
    const indexStamp = await stampOf(index);
    if (indexStamp === 'none') return null;
    const stamp = `${indexStamp}|${await stampOf(manifest)}`;
    if (loaded?.stamp === stamp) return loaded;
    const html = await readFile(index, 'utf8');
    const pages = parsePreloads(await readFile(manifest, 'utf8').catch(() => null));
    loaded = { stamp, html, pages };
    return loaded;
  };
  return (req, res, next) => {
    res.setHeader('Cache-Control', REVALIDATE);
    load()
      .then((app) => {
        if (!app) return void res.type('html').send(notBuilt);
        const links = preloadLinks(app.pages, req.path, req.originalUrl.includes('?'));
        res.type('html').send(links ? app.html.replace('</head>', `${links}</head>`) : app.html);
      })
      .catch(next);
  };
}
