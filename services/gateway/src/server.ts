import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import type { ImageStore } from '@tv-shop/images';
import type { EdgePayments } from '@tv-shop/orders';
import type { ChangeFeed, CommandBus, EventStore, PositionTracker } from '@tv-shop/platform';
import { createApp } from './app';
import { googleVerifier } from './auth/google';
import { Tokens } from './auth/tokens';
import { CommandSender } from './commands';
import type { GatewayConfig } from './config';
import { ListCache } from './http/list-cache';
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
    lists: { cache: new ListCache(), version: () => positions.reachedBy('catalog') },
    position: () => positions.position,
    lifecycle: parts.lifecycle,
    verifier: parts.verifier,
  });
  const server = http.createServer(app);
  const sockets = attachSockets(server, {
    feed,
    tokens,
    reads,
    position: () => positions.position,
    limits: config.sockets,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: async () => {
      await sockets.close();
      await new Promise((resolve) => {
        server.close(resolve);
        // Idle keep-alive connections would hold the close open until they time out.
        server.closeIdleConnections();
      });
    },
  };
}
