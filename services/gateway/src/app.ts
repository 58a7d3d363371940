import { randomUUID } from 'node:crypto';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { pino } from 'pino';
import { authenticate, sessionAccounts } from './auth/middleware';
import type { GatewayDeps } from './deps';
import { POSITION_HEADER } from '@tv-shop/contracts';
import { AppError, logLevelFromEnv } from '@tv-shop/platform';
import { apiCors } from './http/cors';
import { notFoundHandler, problemHandler } from './http/problem';
import { appPage } from './http/page-html';
import { webApp } from './http/static';
import { hasBody, nestedDeeperThan, unreadableText } from './http/validate';
import { authRoutes } from './routes/auth';
import { catalogRoutes } from './routes/catalog';
import { imageRoutes } from './routes/images';
import { orderRoutes, stripeWebhook } from './routes/orders';
import { systemRoutes } from './routes/system';
import { adminRoutes } from './routes/admin';
import { userRoutes } from './routes/users';
import { shedWrites } from './http/load-shed';

/** JSON bodies nest no deeper than this; the spec's bodies are two levels deep. */
export const MAX_BODY_DEPTH = 32;

/**
 * Where the web app may load from and talk to: itself (and its Socket.IO WebSocket), Stripe.js
 * and its frames and API (Stripe Elements), Google Identity Services, and product pictures from
 * any http(s) address (listings may name one). antd writes its styles at run time, so inline
 * styles are allowed; scripts are not.
 */
export function contentSecurityPolicy() {
  const sameHostSockets = (req: unknown) => {
    const host = String((req as Request).headers.host ?? '').replace(/[^A-Za-z0-9.:[\]-]/g, '');
    return host ? `ws://${host} wss://${host}` : "'self'";
  };
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", 'https://js.stripe.com', 'https://accounts.google.com/gsi/client'],
      styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", sameHostSockets, 'https://api.stripe.com', 'https://accounts.google.com/gsi/'],
      frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com', 'https://accounts.google.com/gsi/'],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  };
}

/** Headers, cookies and query values that carry secrets never reach the logs. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
];
const SECRET_QUERY = /([?&](?:token|password|secret|client_secret|clientSecret|key|code)=)[^&]*/gi;

type LogLevel = 'info' | 'warn' | 'error';
const GIVEN_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * One JSON line per request (pino): method, path without secrets, status, time; never a body.
 * Its id (the caller's X-Request-Id when it is a plain token, else a new one) is sent back. The
 * line is built only when its level is logged: at LOG_LEVEL=error a request that succeeds costs
 * an id and three listeners, not a serialised copy of its headers (pino-http made one per
 * request, ~3% of the gateway's CPU under a write load). A request whose client went away
 * before its answer was sent says so ("request aborted", no status), as pino-http's did.
 */
export function requestLogger(level = logLevelFromEnv(), destination: pino.DestinationStream = pino.destination({ dest: 1, sync: true })) {
  const logger = pino(
    {
      level,
      base: { component: 'gateway' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Its type and message: a stack would say nothing about the request.
      serializers: { err: (err: Error) => ({ type: err.constructor.name, message: err.message }) },
    },
    destination,
  );
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && GIVEN_REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    const start = Date.now();
    // Read now: once the client has gone, its socket no longer says where it was.
    const remoteAddress = req.socket.remoteAddress;
    const finished = (err?: Error) => {
      res.off('finish', finished).off('close', finished).off('error', finished);
      const status = res.statusCode;
      // A 503 is an honest answer during an outage (the outage itself is logged where it happens).
      // 503 (an outage, said honestly) and 501 (a feature this shop is not configured for, such
      // as Google sign-in) are expected answers, not the server failing.
      const expected = status === 503 || status === 501;
      const at: LogLevel = expected ? 'warn' : err || status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(at)) return;
      const line = {
        req: {
          id,
          method: req.method,
          url: req.originalUrl.replace(SECRET_QUERY, '$1[redacted]'),
          remoteAddress,
          headers: req.headers,
        },
        res: { statusCode: res.headersSent ? status : null },
        responseTime: Date.now() - start,
      };
      if (err || (status >= 500 && !expected))
        logger[at]({ ...line, err: err ?? new Error(`failed with status code ${status}`) }, 'request errored');
      else logger[at](line, res.writableEnded ? 'request completed' : 'request aborted');
    };
    res.on('finish', finished).on('close', finished).on('error', finished);
    next();
  };
}

/** The HTTP surface: the spec's calls under /api, and the built web app at /. */
export function createApp(deps: GatewayDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Only proxies named in TRUST_PROXY may say who the client is; by default nobody may, so the
  // per-client limits count the connection's own address and X-Forwarded-For changes nothing.
  app.set('trust proxy', deps.config.trustProxy);
  app.use(requestLogger(deps.config.logLevel ?? logLevelFromEnv()));
  app.use(
    helmet({
      contentSecurityPolicy: contentSecurityPolicy(),
      // Google's sign-in popup talks back to the page that opened it.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      crossOriginEmbedderPolicy: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
      // Served over plain http on a laptop; a TLS proxy in front sets HSTS itself.
      strictTransportSecurity: false,
    }),
  );

  const api = express.Router();
  // Before anything else, so a preflight is answered and even an error carries the CORS headers.
  api.use(apiCors(deps.config.corsOrigins));
  // Offered more writes than it can take, refuse the excess at once (503, Retry-After) rather
  // than let every write wait out its timeout.
  api.use(shedWrites(deps.config.maxWritesInFlight));
  // JSON (and the log's NDJSON and CSV export, still streamed: zlib passes on backpressure)
  // compressed for a browser that accepts it; Socket.IO does not come through here. Reads only:
  // a write's answer is a few hundred bytes, and wrapping it costs more than it could save.
  const compress = compression({
    filter: (req, res) => /^application\/x-ndjson/.test(String(res.getHeader('Content-Type'))) || compression.filter(req, res),
  });
  api.use((req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? compress(req, res, next) : next()));
  api.use(stripeWebhook(deps));
  api.use(express.json({ limit: '100kb', strict: true }));
  api.use((req, _res, next) => {
    // A body the API cannot read is said to be one (415), not taken for an empty one: bodies are
    // JSON, and photos come as multipart/form-data (POST /images).
    if (hasBody(req) && !req.is(['application/json', 'multipart/form-data']))
      return next(new AppError('unsupported_media_type', 'The body must be sent as application/json', { field: 'body' }));
    // A parameter given twice (`email=a&email=b`) arrives as a list: say so, not "is required"
    // or "expected a number".
    const repeated = Object.entries(req.query).find(([, v]) => typeof v !== 'string');
    if (repeated) {
      const [field] = repeated;
      const message = 'must be given once, as plain text';
      return next(new AppError('validation', `${field} ${message}`, { field, errors: [{ field, message }] }));
    }
    next();
  });
  api.use((req, _res, next) => {
    // Deep nesting would overflow the stack of whatever walks the body later (the fingerprint).
    if (nestedDeeperThan(req.body, MAX_BODY_DEPTH))
      return next(new AppError('validation', `The body nests deeper than ${MAX_BODY_DEPTH} levels`, { field: 'body' }));
    next();
  });
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
  api.use(authenticate(deps.tokens, deps.accounts ?? sessionAccounts(deps.reads, deps.tokens)));
  api.use((req, res, next) => {
    // A signed-in caller's answers may hold personal data (their bookings, reporters' names, every
    // user's email for the admin): no cache, the browser's included, keeps them. A route may say
    // otherwise (an image is the same for everyone).
    if (req.headers.authorization) res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use(
    systemRoutes(deps),
    authRoutes(deps),
    userRoutes(deps),
    catalogRoutes(deps),
    orderRoutes(deps),
    imageRoutes(deps),
    adminRoutes(deps),
  );
  api.use(notFoundHandler);
  api.use(problemHandler);
  app.use('/api', api);

  app.use(webApp(deps.config.webDist));
  app.get(
    /^(?!\/api\/|\/socket\.io\/).*/,
    appPage(
      deps.config.webDist,
      '<!doctype html><title>TV Shop</title><h1>TV Shop</h1><p>The web app is not built yet: run <code>npm run build</code>.</p>',
    ),
  );
  // Outside /api only the web app's pages are served (GET): anything else (a write to the
  // original server's paths, say) is a problem+json 404 naming the route, as under /api.
  app.use(notFoundHandler);
  app.use(problemHandler);
  return app;
}
