import { existsSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import { authenticate } from './auth/middleware';
import type { GatewayDeps } from './deps';
import { POSITION_HEADER } from '@tv-shop/contracts';
import { AppError } from '@tv-shop/platform';
import { notFoundHandler, problemHandler } from './http/problem';
import { unreadableText } from './http/validate';
import { authRoutes } from './routes/auth';
import { catalogRoutes } from './routes/catalog';
import { imageRoutes } from './routes/images';
import { orderRoutes, stripeWebhook } from './routes/orders';
import { systemRoutes } from './routes/system';
import { userRoutes } from './routes/users';

/** The HTTP surface: the spec's calls under /api, and the built web app at /. */
export function createApp(deps: GatewayDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use((_req, res, next) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin', 'X-Frame-Options': 'DENY' });
    next();
  });

  const api = express.Router();
  api.use(stripeWebhook(deps));
  api.use(express.json({ limit: '100kb', strict: true }));
  api.use((req, _res, next) => {
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      return next(new AppError('validation', 'The request path cannot be decoded', { field: 'path' }));
    }
    const bad = unreadableText(path, 'path') ?? unreadableText(req.query, 'query') ?? unreadableText(req.body);
    next(bad ? new AppError('validation', `${bad} contains characters that cannot be stored`, { field: bad }) : undefined);
  });
  api.use((req, res, next) => {
    // Read before the query runs, so the answer is at least this fresh.
    if (req.method === 'GET') res.setHeader(POSITION_HEADER, String(deps.position()));
    next();
  });
  api.use(authenticate(deps.tokens, deps.reads));
  api.use(systemRoutes(deps), authRoutes(deps), userRoutes(deps), catalogRoutes(deps), orderRoutes(deps), imageRoutes(deps));
  api.use(notFoundHandler);
  api.use(problemHandler);
  app.use('/api', api);

  const index = path.join(deps.config.webDist, 'index.html');
  app.use(express.static(deps.config.webDist, { index: false, maxAge: '1h' }));
  app.get(/^(?!\/api\/|\/socket\.io\/).*/, (_req, res) => {
    if (existsSync(index)) res.sendFile(index);
    else
      res
        .type('html')
        .send('<!doctype html><title>TV Shop</title><h1>TV Shop</h1><p>The web app is not built yet: run <code>npm run build</code>.</p>');
  });
  return app;
}
