import { stat } from 'node:fs/promises';
import path from 'node:path';
import express, { type RequestHandler } from 'express';

/** Hashed build output (web/dist/assets): its name changes with its content, so it never goes stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, favicon.svg): kept, but asked about again (ETag) before each use. */
export const REVALIDATE = 'no-cache';

const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** The encodings an Accept-Encoding header allows (a q of 0 refuses one), e.g. "gzip, br;q=0". */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

const isFile = (file: string) =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * The built web app: each file as the build precompressed it (`.br`, else `.gz`, written beside it
 * by web/vite.config.ts) when the browser accepts that encoding, with `Vary: Accept-Encoding`;
 * hashed assets cached for a year, the rest revalidated. A missing asset is a 404, never the app's
 * index.html, so a tab still running an older build sees its chunk fail to load and reloads
 * (ADR 0041).
 */
export function webApp(root: string): RequestHandler {
  const files = express.static(root, {
    index: false,
    // A request for the compressed copy itself (/assets/x.js.br) is served as it is.
    setHeaders: (res, file) =>
      res.setHeader('Cache-Control', file.startsWith(path.join(root, 'assets') + path.sep) ? IMMUTABLE : REVALIDATE),
  });
  const router = express.Router();
  router.use(async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = path.join(root, path.normalize(relative));
    if (!file.startsWith(root + path.sep) || !(await isFile(file))) return next();
    res.vary('Accept-Encoding');
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    for (const { name, suffix } of ENCODINGS) {
      if (!accepted.has(name) || !(await isFile(file + suffix))) continue;
      // express.static keeps a Content-Type already set: the original file's, not the .br's.
      res.type(path.extname(file));
      res.setHeader('Content-Encoding', name);
      req.url = req.url.replace(/^[^?]*/, (p) => p + suffix);
      break;
    }
    next();
  });
  router.use(files);
  // A hashed asset that is not there (an older build's) must not be answered with index.html.
  router.use('/assets', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status(404).type('text').send('Not found');
  });
  return router;
}
