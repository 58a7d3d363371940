import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import type { ImageStore } from '@tv-shop/images';
import type { EdgePayments } from '@tv-shop/orders';
import express from 'express';
import {
  bearerTokenMatches,
  createMetrics,
  gaugeOnScrape,
  httpRequestHistogram,
  KafkaCommandBus,
  type ChangeFeed,
  type CommandBus,
  type EventStore,
  type Metrics,
  type PositionTracker,
} from '@tv-shop/platform';
import { createApp } from './app';
import { googleVerifier } from './auth/google';
import { sessionAccounts } from './auth/middleware';
import { Tokens } from './auth/tokens';
import { UserCache } from './auth/user-cache';
import { CommandSender } from './commands';
import type { GatewayConfig } from './config';
import { ListCache } from './http/list-cache';
import { answerClientError } from './http/problem';
import type { GatewayDeps } from './deps';
import type { ReadModels } from './read-models';
import { attachSockets } from './sockets';

/** What the edge is handed by its host: where commands go, where reads and change notices come from. */
export interface EdgeParts {
  config: GatewayConfig;
  pool: pg.Pool;
  databaseMode: 'embedded' | 'external';
  store: EventStore;
  bus: CommandBus;
  feed: ChangeFeed;
  reads: ReadModels;
  positions: PositionTracker;
  payments: EdgePayments;
  images: ImageStore;
  lifecycle: () => 'starting' | 'ready' | 'stopping';
  /** The process's registry (its host makes one); unset, the gateway keeps one of its own. */
  metrics?: Metrics;
  /** The projections' Verify, where the host knows them (the admin's button). */
  verifier?: GatewayDeps['verifier'];
}

/**
 * The gateway: the HTTP app and Socket.IO on one server, listening on `config.port`. Answers
 * its URL and a close that stops taking requests, lets the ones in flight finish, and closes
 * the sockets.
 */
export async function serveGateway(parts: EdgeParts): Promise<{ url: string; close: () => Promise<void> }> {
  const { config, pool, store, bus, feed, reads, positions } = parts;
  const tokens = await Tokens.fromConfig(config.jwtSecret, config.dataDir);
  // The caller's account, kept between requests until the identity read model announces a change.
  const accounts = new UserCache(sessionAccounts(reads, tokens), feed);
  const lists = new ListCache();
  // Product and seller pages: many keys (a crawler may ask for any id), so a cache of their own,
  // bounded in entries and bytes, that never pushes the busy lists out.
  const pages = new ListCache(2000, 500, 16 * 1024 * 1024);
  const app = createApp({
    config,
    pool,
    databaseMode: parts.databaseMode,
    store,
    reads,
    sender: new CommandSender(bus, positions, { pool, store }, tokens.fingerprintKey),
    tokens,
    verifyGoogle: googleVerifier(config.google),
    payments: parts.payments,
    images: parts.images,
    lists: {
      cache: lists,
      version: () => positions.reachedBy('catalog'),
      pages,
      pagesVersion: () => `${positions.reachedBy('catalog')}/${positions.reachedBy('users')}`,
    },
    position: () => positions.position,
    lifecycle: parts.lifecycle,
    // With Kafka, whether this process still hears the replies to its commands (and takes those of the services it hosts).
    ...(bus instanceof KafkaCommandBus ? { transport: () => bus.health() } : {}),
    verifier: parts.verifier,
    accounts: (id, fresh) => accounts.get(id, fresh),
  });
  const metrics = parts.metrics ?? createMetrics({ service: 'gateway' });
  const server = http.createServer(withMetrics(app, metrics, config.metricsToken));
  server.on('clientError', answerClientError);
  const sockets = attachSockets(server, {
    feed,
    tokens,
    reads,
    accounts: (id, fresh) => accounts.get(id, fresh),
    position: () => positions.position,
    logHead: () => store.headPosition(),
    limits: config.sockets,
    sessionCheckMs: config.socketSessionCheckMs,
    rebuildCheckMs: config.rebuildCheckMs,
    onRebuilt: () => {
      lists.clear();
      pages.clear();
    },
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
  });
  gaugeOnScrape(
    metrics,
    'tvshop_socketio_open_sockets',
    'Socket.IO connections open on this gateway',
    () => sockets.io.engine.clientsCount,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: async () => {
      accounts.close();
      await sockets.close();
      await new Promise((resolve) => {
        server.close(resolve);
        // Idle keep-alive connections would hold the close open until they time out.
        server.closeIdleConnections();
      });
    },
  };
}

/**
 * The app with each request's latency recorded by its route pattern, and `GET /metrics` on the
 * public port for a scraper that cannot reach the internal listener: only with
 * `Authorization: Bearer <METRICS_TOKEN>`, and not at all (404) when no token is set (ADR 0037).
 */
function withMetrics(app: express.Express, metrics: Metrics, token: string | undefined): express.Express {
  const latency = httpRequestHistogram(metrics);
  const outer = express();
  outer.disable('x-powered-by');
  outer.use((req, res, next) => {
    const end = latency.startTimer();
    res.once('finish', () => end({ method: req.method, route: routeOf(req), status_class: `${Math.floor(res.statusCode / 100)}xx` }));
    next();
  });
  outer.get('/metrics', (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (!token) return void res.status(404).type('text/plain').send('Not found\n');
    if (!bearerTokenMatches(req.headers.authorization, token))
      return void res.status(401).set('WWW-Authenticate', 'Bearer').type('text/plain').send('A valid metrics token is needed\n');
    metrics.registry.metrics().then(
      (text) => res.type(metrics.registry.contentType).send(text),
      () => res.status(503).type('text/plain').send('Collecting the metrics failed\n'),
    );
  });
  outer.use(app);
  return outer;
}

/**
 * The route pattern that answered (`/api/products/:id`), never the raw URL, so the number of
 * series stays bounded: the web app's pages and files count as one route, anything that matched
 * no route as another.
 */
function routeOf(req: express.Request): string {
  const route = (req as { route?: { path?: unknown } }).route;
  if (typeof route?.path === 'string') return `${req.baseUrl}${route.path}`;
  return req.originalUrl.startsWith('/api/') || req.originalUrl === '/api' ? '(no route)' : '(web app)';
}
